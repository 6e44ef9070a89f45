import { sql } from "drizzle-orm";
import { foreignKey, jsonb, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { companyId } from "./columns.js";
import { whatsapps } from "./whatsapps.js";

/**
 * Meta's customer-service window per Cloud API connection and customer (issue 31): free text may go
 * until 24 h after the customer's last message. Written by the inbound webhook's processing; read by
 * every sending path. Keyed by the number as the channel gives it (digits).
 */
export const cloudWindows = pgTable(
  "cloud_windows",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    number: text("number").notNull(),
    lastInboundAt: timestamp("last_inbound_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.number] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
  ],
);

/**
 * The business account's message templates as last listed from the Graph API (a cache: the API is
 * the truth; refreshed after CloudLimits.templatesCacheMs or on request).
 */
export const cloudTemplates = pgTable(
  "cloud_templates",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    name: text("name").notNull(),
    language: text("language").notNull(),
    status: text("status").notNull(),
    category: text("category").notNull().default(""),
    /** The template's components as the API lists them (HEADER, BODY, FOOTER, BUTTONS). */
    components: jsonb("components").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    fetchedAt: timestamp("fetched_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.name, t.language] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
  ],
);
