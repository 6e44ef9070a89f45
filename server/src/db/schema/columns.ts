import { integer } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";

export { timestamps } from "./timestamps.js";

/** Every tenant row names its company; deleting a company removes its rows. */
export const companyId = () =>
  integer("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" });
