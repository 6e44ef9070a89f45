import { pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

export const settings = pgTable(
  "settings",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    key: text("key").notNull(),
    value: text("value").notNull().default(""),
    ...timestamps,
  },
  (t) => [uniqueIndex("settings_company_key_key").on(t.companyId, t.key)],
);
