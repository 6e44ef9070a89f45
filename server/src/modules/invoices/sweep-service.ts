import { sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { rowsOf } from "../../lib/rate-limit.js";

/** The operator's own company (the seed's): it bills the others and is never billed. */
const MAIN_COMPANY_ID = 1;

const DAY_MS = 86_400_000;

/**
 * The invoice sweep (behaviours: Subscriptions and invoices): an open invoice for every active company
 * whose due date is at most `invoiceDaysBefore` days ahead (or already past, so an expired company can
 * still pay), once per due date, its value the plan's (copied numeric to numeric: no float on the way)
 * and its detail the plan's name. Free plans and the main company are not billed.
 *
 * One statement: the unique (company, due date) index with ON CONFLICT DO NOTHING makes two nodes
 * sweeping at once write each invoice once (the second waits on the first's row, then skips it).
 * "Today" is the UTC date: a company's own zone moves it by hours, nothing to a bill days ahead.
 */
export async function createDueInvoices(s: Services, now: Date, limit: number): Promise<number> {
  const horizon = new Date(now.getTime() + s.config.invoiceDaysBefore * DAY_MS).toISOString().slice(0, 10);
  const result = await s.db.execute(sql`
    insert into invoices (company_id, detail, value, due_date)
    select c.id, p.name, p.value, c.due_date
      from companies c join plans p on p.id = c.plan_id
     where c.id <> ${MAIN_COMPANY_ID} and c.status and c.due_date is not null and p.value > 0
       and c.due_date <= ${horizon}::date
       and not exists (select 1 from invoices i where i.company_id = c.id and i.due_date = c.due_date)
     order by c.due_date, c.id
     limit ${limit}
    on conflict (company_id, due_date) do nothing
    returning id`);
  return rowsOf(result).length;
}
