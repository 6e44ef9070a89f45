import { boolean, pgTable, serial, text, unique, index } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

/** Connections (core §3 Connection). The Connections issue adds the session fields and drivers. */
export const whatsapps = pgTable(
  "whatsapps",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    status: text("status").notNull().default("DISCONNECTED"),
    isDefault: boolean("is_default").notNull().default(false),
    provider: text("provider").notNull().default("beta"),
    ...timestamps,
  },
  (t) => [unique("whatsapps_company_id_id_key").on(t.companyId, t.id), index("whatsapps_company_idx").on(t.companyId, t.name)],
);
