import { type SQL, and, eq, gte, isNull, or } from "drizzle-orm";
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
