import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { companies } from "../../db/schema/index.js";

/** The company's time zone: the clock its dates, hours and template variables are read on. */
export async function companyTimeZone(db: Db | Tx, companyId: number): Promise<string | undefined> {
  const [row] = await db.select({ timeZone: companies.timeZone }).from(companies).where(eq(companies.id, companyId));
  return row?.timeZone;
}
