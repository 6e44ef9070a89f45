import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const variant = (name: string) => text(name).notNull().default("");

/** secondary §3 Campaign. The status moves on the server (behaviours: Campaigns). */
export const campaigns = pgTable(
  "campaigns",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    message1: variant("message1"),
    message2: variant("message2"),
    message3: variant("message3"),
    message4: variant("message4"),
    message5: variant("message5"),
    confirmationMessage1: variant("confirmation_message1"),
    confirmationMessage2: variant("confirmation_message2"),
    confirmationMessage3: variant("confirmation_message3"),
    confirmationMessage4: variant("confirmation_message4"),
    confirmationMessage5: variant("confirmation_message5"),
    status: text("status").notNull().default("INATIVA"),
    confirmation: boolean("confirmation").notNull().default(false),
    scheduledAt: at("scheduled_at"),
    startedAt: at("started_at"),
    completedAt: at("completed_at"),
    /**
     * Set while the campaign's sends wait: its connection is down, or it was cancelled. When it goes on,
     * the planned times still ahead move by the time it waited, so the intervals between sends hold.
     */
    pausedAt: at("paused_at"),
    whatsappId: integer("whatsapp_id"),
    contactListId: integer("contact_list_id"),
    tagListId: integer("tag_list_id"),
    fileListId: integer("file_list_id"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaMimetype: text("media_mimetype"),
    ...timestamps,
  },
  (t) => [
    unique("campaigns_company_id_id_key").on(t.companyId, t.id),
    index("campaigns_company_name_idx").on(t.companyId, t.name),
    // the start sweep's queue
    index("campaigns_scheduled_idx").on(t.scheduledAt).where(sql`status = 'PROGRAMADA'`),
  ],
);

/**
 * One contact of a running campaign (behaviours: Campaigns): made when the campaign starts, once per
 * number. Its sends are recorded before they happen (status sending/confirming with `claimedAt`) under
 * message ids derived from `sendKey`, so a send interrupted by a crash is sent again under the same
 * ids, which WhatsApp delivers once.
 */
export const campaignShippings = pgTable(
  "campaign_shippings",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    campaignId: integer("campaign_id").notNull(),
    contactListItemId: integer("contact_list_item_id"),
    contactId: integer("contact_id"),
    number: text("number").notNull(),
    /** The number as WhatsApp answered it (its check), to match the contact's reply; null until sent. */
    address: text("address"),
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    /** pending → (confirming → awaiting → pending) → sending → delivered | failed */
    status: text("status").notNull().default("pending"),
    plannedAt: at("planned_at").notNull(),
    sendKey: text("send_key").notNull(),
    claimedAt: at("claimed_at"),
    attempts: integer("attempts").notNull().default(0),
    message: text("message"),
    confirmationMessage: text("confirmation_message"),
    channelMessageId: text("channel_message_id"),
    confirmationRequestedAt: at("confirmation_requested_at"),
    confirmedAt: at("confirmed_at"),
    deliveredAt: at("delivered_at"),
    failedAt: at("failed_at"),
    error: text("error"),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      columns: [t.companyId, t.campaignId],
      foreignColumns: [campaigns.companyId, campaigns.id],
      name: "campaign_shippings_campaign_fk",
    }).onDelete("cascade"),
    uniqueIndex("campaign_shippings_campaign_number_key").on(t.campaignId, t.number),
    // the send sweep's queue, and sends a dead node left half done
    index("campaign_shippings_due_idx").on(t.plannedAt).where(sql`status = 'pending'`),
    index("campaign_shippings_claimed_idx").on(t.claimedAt).where(sql`status in ('sending', 'confirming')`),
    // a contact's reply finds the confirmation it answers
    index("campaign_shippings_awaiting_idx").on(t.companyId, t.address).where(sql`status = 'awaiting'`),
  ],
);

/** secondary §3 Campaign settings: key/value records with JSON values, one set per company. */
export const campaignSettings = pgTable(
  "campaign_settings",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("campaign_settings_company_key_key").on(t.companyId, t.key)],
);
