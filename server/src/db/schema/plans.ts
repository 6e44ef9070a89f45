import { boolean, integer, numeric, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./timestamps.js";

/** Platform-wide: plans are not tenant rows. */
export const plans = pgTable(
  "plans",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    users: integer("users").notNull().default(10),
    connections: integer("connections").notNull().default(1),
    queues: integer("queues").notNull().default(10),
    value: numeric("value", { precision: 14, scale: 2 }).notNull().default("0"),
    useCampaigns: boolean("use_campaigns").notNull().default(true),
    useSchedules: boolean("use_schedules").notNull().default(true),
    useInternalChat: boolean("use_internal_chat").notNull().default(true),
    useExternalApi: boolean("use_external_api").notNull().default(true),
    useKanban: boolean("use_kanban").notNull().default(true),
    useOpenAi: boolean("use_open_ai").notNull().default(false),
    useIntegrations: boolean("use_integrations").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("plans_name_key").on(t.name)],
);
