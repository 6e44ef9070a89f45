import { sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { contacts } from "./contacts.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

/** secondary §3 Schedule statuses as the API names them (shown capitalised; ERRO as a send error). */
export const ScheduleStatuses = ["PENDENTE", "ENVIANDO", "ENVIADA", "ERRO", "CANCELADA"] as const;
export type ScheduleStatus = (typeof ScheduleStatuses)[number];
export const ScheduleRepeats = ["none", "daily", "weekly", "monthly"] as const;
export type ScheduleRepeat = (typeof ScheduleRepeats)[number];

/**
 * A message to a contact at a time (secondary §2 Schedules, behaviours: Schedules). Sent through the
 * messages service from a claimed row: `ENVIANDO` with `locked_until` while a node sends it, so no two
 * nodes send it and an edit or delete meanwhile is refused.
 */
export const schedules = pgTable(
  "schedules",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    body: text("body").notNull().default(""),
    sendAt: timestamp("send_at", { withTimezone: true, mode: "date" }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    status: text("status", { enum: ScheduleStatuses }).notNull().default("PENDENTE"),
    /** Why a send failed (status ERRO), in the catalogue's code. */
    error: text("error"),
    /** Sent after its time (the server was down when it was due). */
    late: boolean("late").notNull().default(false),
    contactId: integer("contact_id").notNull(),
    ticketId: integer("ticket_id"),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The message row the send recorded first: a retried send finds it instead of writing another. */
    messageId: integer("message_id"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    /** The IANA zone the time was entered in (secondary §9 default America/Noronha, else the company's). */
    timezone: text("timezone"),
    repeat: text("repeat", { enum: ScheduleRepeats }).notNull().default("none"),
    /** Weekly repeats: days of the week, 0 Sunday … 6 Saturday. */
    repeatDays: integer("repeat_days").array().notNull().default(sql`'{}'::integer[]`),
    /** The occurrence this one repeats: at most one next occurrence per sent one. */
    previousId: integer("previous_id"),
    /** While ENVIANDO: past this the sending node is taken for dead and another may claim it. */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.contactId], foreignColumns: [contacts.companyId, contacts.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("set null"),
    index("schedules_company_send_at_idx").on(t.companyId, t.sendAt, t.id),
    index("schedules_due_idx").on(t.sendAt).where(sql`${t.status} = 'PENDENTE'`),
    index("schedules_lease_idx").on(t.lockedUntil).where(sql`${t.status} = 'ENVIANDO'`),
    uniqueIndex("schedules_previous_key").on(t.previousId).where(sql`${t.previousId} is not null`),
  ],
);
