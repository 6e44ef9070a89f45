import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { users } from "./users.js";

/** Quick replies offered by the composer's slash list; `geral` ones are shared with the company. */
export const quickMessages = pgTable(
  "quick_messages",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    shortcode: text("shortcode").notNull(),
    message: text("message").notNull().default(""),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    geral: boolean("geral").notNull().default(true),
    /** secondary §4: Active or Inactive; the composer's slash list offers only the active ones. */
    status: boolean("status").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index("quick_messages_company_idx").on(t.companyId, t.shortcode),
    uniqueIndex("quick_messages_company_user_shortcode_key").on(t.companyId, t.userId, t.shortcode),
  ],
);
