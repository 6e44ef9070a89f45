import { DEFAULT_SCHEDULES, DEFAULT_TIME_ZONE, type ScheduleEntry } from "@charla/contracts";
import { foreignKey, index, integer, jsonb, pgTable, serial, text, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

/** Areas (core §3 Queue): the chatbot's greeting and option tree, its messages and its working hours. */
export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    // null: no place of its own; such areas come after the numbered ones, by name
    orderQueue: integer("order_queue"),
    greetingMessage: text("greeting_message").notNull().default(""),
    complationMessage: text("complation_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    ratingMessage: text("rating_message").notNull().default(""),
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    schedules: jsonb("schedules").$type<ScheduleEntry[]>().notNull().default(DEFAULT_SCHEDULES),
    // an AI prompt or a queue integration serving the area's tickets (secondary §3); cleared when it is deleted
    promptId: integer("prompt_id"),
    integrationId: integer("integration_id"),
    ...timestamps,
  },
  (t) => [
    // (company_id, id) lets child rows reference a queue of their own company only
    unique("queues_company_id_id_key").on(t.companyId, t.id),
    uniqueIndex("queues_company_color_key").on(t.companyId, t.color),
    uniqueIndex("queues_company_name_key").on(t.companyId, t.name),
  ],
);

/**
 * A node of a queue's chatbot tree (core §3 Queue option). `option` is its position among its siblings
 * ("1", "2", …), what the contact types to choose it; deleting one renumbers the rest.
 */
export const queueOptions = pgTable(
  "queue_options",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    queueId: integer("queue_id").notNull(),
    parentId: integer("parent_id"),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    option: text("option").notNull(),
    /** Reaching this node hands the ticket to a queue integration or an AI prompt (core §3 Queue option). */
    qIntegrationId: integer("q_integration_id"),
    promptId: integer("prompt_id"),
    ...timestamps,
  },
  (t) => [
    // what the parent key points at: a parent is always of the same company and the same queue
    unique("queue_options_company_queue_id_key").on(t.companyId, t.queueId, t.id),
    foreignKey({ columns: [t.companyId, t.queueId], foreignColumns: [queues.companyId, queues.id] }).onDelete("cascade"),
    // a null parent (a root) is not checked; deleting a node deletes its subtree
    foreignKey({
      name: "queue_options_parent_fk",
      columns: [t.companyId, t.queueId, t.parentId],
      foreignColumns: [t.companyId, t.queueId, t.id],
    }).onDelete("cascade"),
    // one level of the tree, and the cascade from a deleted parent
    index("queue_options_company_queue_parent_idx").on(t.companyId, t.queueId, t.parentId),
  ],
);
