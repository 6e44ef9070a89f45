import { type SQL, and, eq, gte, isNull, or, sql } from "drizzle-orm";
import { companies, whatsapps } from "../db/schema/index.js";

/**
 * Timed jobs act only for a connection that is CONNECTED (its message can go out) of a company in
 * good standing: active and not past its due date on `now`'s day (behaviours: Queue choice, Expiry).
 * To be used on a query joining `whatsapps` and its `companies` row.
 */
export function connectedInGoodStanding(now: Date): SQL {
  const today = now.toISOString().slice(0, 10);
  return and(
    eq(whatsapps.status, "CONNECTED"),
    eq(companies.status, true),
    or(isNull(companies.dueDate), gte(companies.dueDate, today)),
  ) as SQL;
}

/**
 * Campaign work (starts, sends, the numbers' WhatsApp checks) runs only for a company in good standing
 * whose plan has campaigns: a suspended or overdue company's work waits (nothing lost, nothing failed)
 * until it is back, as its API answers 403 meanwhile. `companyId` is the outer query's company column,
 * spelled out (inside a one-table select Drizzle would leave it unqualified).
 */
export function campaignsAllowed(now: Date, companyId: SQL = sql`campaigns.company_id`): SQL {
  const today = now.toISOString().slice(0, 10);
  return sql`exists (select 1 from companies co join plans p on p.id = co.plan_id
    where co.id = ${companyId} and co.status and p.use_campaigns
      and (co.due_date is null or co.due_date >= ${today}))`;
}
