import { integer, pgTable, serial, text, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

/** Areas (core §3 Queue). The Areas issue adds the chatbot, hours and messages. */
export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    orderQueue: integer("order_queue").notNull().default(0),
    greetingMessage: text("greeting_message").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    // (company_id, id) lets child rows reference a queue of their own company only
    unique("queues_company_id_id_key").on(t.companyId, t.id),
    uniqueIndex("queues_company_color_key").on(t.companyId, t.color),
    uniqueIndex("queues_company_name_key").on(t.companyId, t.name),
  ],
);
