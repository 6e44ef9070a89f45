import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { whatsapps } from "./whatsapps.js";

export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    // digits only; "" when unknown (contacts created by hand may have no number)
    number: text("number").notNull().default(""),
    email: text("email").notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    isGroup: boolean("is_group").notNull().default(false),
    extraInfo: jsonb("extra_info").$type<{ name: string; value: string }[]>().notNull().default([]),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    // when the contact's first-ever ticket began (group chats aside): the dashboard's leads. Kept by
    // triggers on tickets (migration 0020), never written by the application.
    firstTicketAt: timestamp("first_ticket_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    unique("contacts_company_id_id_key").on(t.companyId, t.id),
    // one contact per number in a company; the check is the index itself, so two inbound messages racing cannot create two
    uniqueIndex("contacts_company_number_key").on(t.companyId, t.number).where(sql`${t.number} <> ''`),
    index("contacts_company_name_idx").on(t.companyId, t.name),
    // contains-searches on name and number (contacts page, tickets list) use trigrams
    index("contacts_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    index("contacts_number_trgm_idx").using("gin", t.number.op("gin_trgm_ops")),
    index("contacts_company_first_ticket_idx").on(t.companyId, t.firstTicketAt),
  ],
);
