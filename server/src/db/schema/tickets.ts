import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { contacts } from "./contacts.js";
import { queues } from "./queues.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

/** A conversation with a contact on one connection (core §3 Ticket, §4 states). */
export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    uuid: uuid("uuid").notNull().defaultRandom(),
    status: text("status").notNull().default("pending"),
    contactId: integer("contact_id").notNull(),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    lastMessage: text("last_message").notNull().default(""),
    unreadMessages: integer("unread_messages").notNull().default(0),
    isGroup: boolean("is_group").notNull().default(false),
    chatbot: boolean("chatbot").notNull().default(false),
    useIntegration: boolean("use_integration").notNull().default(false),
    promptId: integer("prompt_id"),
    integrationId: integer("integration_id"),
    /**
     * The automations (AI prompt, typebot) that already talked to this ticket and handed it over, as
     * "connection:{id}", "queue:{id}", "option:{id}": one does not take the ticket back (automation/resolve.ts).
     * Cleared with the others when the ticket closes.
     */
    automationDone: text("automation_done").array().notNull().default([]),
    // the chatbot's memory of this ticket (behaviours: Queue choice, Option tree, Working hours, Rating)
    /** Where the contact is in its queue's option tree (null: at the queue's root, or not in a tree). */
    queueOptionId: integer("queue_option_id"),
    /** How many times the numbered list of queues was sent, and when last (maxUseBotQueues / timeUseBotQueues). */
    botListCount: integer("bot_list_count").notNull().default(0),
    botListAt: timestamp("bot_list_at", { withTimezone: true, mode: "date" }),
    /** When the out-of-hours message was last sent: once per ticket per closed period. */
    outOfHoursAt: timestamp("out_of_hours_at", { withTimezone: true, mode: "date" }),
    /** Resolved and waiting for the contact's 1–3 (userRating); `ratingAsks` counts the questions sent. */
    awaitingRating: boolean("awaiting_rating").notNull().default(false),
    ratingAsks: integer("rating_asks").notNull().default(0),
    /**
     * The newest received message the bot has taken its turn on (chatbot/turns.ts): written in the turn's
     * own transaction and only forwards, so a turn run twice (a crash, two nodes) answers once, and a turn
     * lost with a crash shows as a newer message than this one (jobs/bot-turns.ts).
     */
    botAnsweredMessageId: integer("bot_answered_message_id"),
    /**
     * The company started this conversation (a schedule, the external API): the bot stays out of it, and
     * the customer's answer reaches its author or area, not the menus (modules/tickets/transitions.ts).
     * Cleared when the conversation is resolved, but for the API's own "send and close".
     */
    startedByCompany: boolean("started_by_company").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    unique("tickets_company_id_id_key").on(t.companyId, t.id),
    // a contact's next message finds the ticket waiting for its rating
    index("tickets_company_awaiting_rating_idx").on(t.companyId, t.contactId, t.whatsappId).where(sql`${t.awaitingRating}`),
    uniqueIndex("tickets_uuid_key").on(t.uuid),
    foreignKey({ columns: [t.companyId, t.contactId], foreignColumns: [contacts.companyId, contacts.id] }).onDelete("cascade"),
    // at most one live ticket per contact and connection: concurrent inbound messages cannot open two
    uniqueIndex("tickets_one_live_per_contact_key")
      .on(t.companyId, t.contactId, t.whatsappId)
      .where(sql`${t.status} in ('open', 'pending')`),
    // the list's order (updatedAt, id) per tab, and across tabs for the search tab: the first page reads 40 index entries
    // (DESC NULLS FIRST is what "order by … desc" means; a NULLS LAST index could not serve it)
    index("tickets_company_status_updated_idx").on(
      t.companyId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("tickets_company_updated_idx").on(t.companyId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("tickets_company_contact_idx").on(t.companyId, t.contactId),
    // the dashboard's tickets of a day by hour
    index("tickets_company_created_idx").on(t.companyId, t.createdAt),
  ],
);

/**
 * How many tickets each (status, queue, assignee) holds: the list's counts are sums over these few rows
 * instead of a count over thousands of tickets. Kept by statement triggers on `tickets` in the same
 * transaction as the change (migration 0010), so they are exact. 0 stands for "none" in queue and user:
 * a key column cannot be null in a primary key.
 */
export const ticketCounts = pgTable(
  "ticket_counts",
  {
    companyId: companyId(),
    status: text("status").notNull(),
    queueId: integer("queue_id").notNull().default(0),
    userId: integer("user_id").notNull().default(0),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "ticket_counts_pkey", columns: [t.companyId, t.status, t.queueId, t.userId] })],
);

/** One row per ticket episode (queued → started → finished), feeding the dashboard. */
export const ticketTracking = pgTable(
  "ticket_tracking",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    ticketId: integer("ticket_id").notNull(),
    whatsappId: integer("whatsapp_id"),
    queueId: integer("queue_id"),
    userId: integer("user_id"),
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    ratingAt: timestamp("rating_at", { withTimezone: true, mode: "date" }),
    rated: boolean("rated").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
    index("ticket_tracking_company_ticket_idx").on(t.companyId, t.ticketId),
    index("ticket_tracking_company_finished_idx").on(t.companyId, t.finishedAt),
    index("ticket_tracking_company_started_idx").on(t.companyId, t.startedAt),
  ],
);

/** A contact's answer to the rating question (1 insatisfecho, 2 satisfecho, 3 muy satisfecho) for a ticket and its agent. */
export const userRatings = pgTable(
  "user_ratings",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    ticketId: integer("ticket_id").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    rate: integer("rate").notNull(),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
    index("user_ratings_company_user_idx").on(t.companyId, t.userId),
    index("user_ratings_company_ticket_idx").on(t.companyId, t.ticketId),
    index("user_ratings_company_created_idx").on(t.companyId, t.createdAt),
  ],
);

/** Messages of a ticket (core §3 Message). `channelId` is the driver's own id, unique per connection. */
export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: companyId(),
    ticketId: integer("ticket_id").notNull(),
    contactId: integer("contact_id"),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    channelId: text("channel_id"),
    /**
     * A sent message as its channel encoded it (Baileys: the whole proto, BufferJSON): the channel asks
     * for it again when a contact's device could not decrypt it (a new phone, a reinstall) and it must
     * go out again as it was, media and quote included. Null for received messages.
     */
    channelContent: text("channel_content"),
    /**
     * A received message's address as its channel gave it (WhatsApp: the chat's jid, a LID or a group,
     * and the group author's), opaque to Charla: read receipts must name exactly that. Null for sent ones.
     */
    channelKey: text("channel_key"),
    body: text("body").notNull().default(""),
    fromMe: boolean("from_me").notNull().default(false),
    read: boolean("read").notNull().default(false),
    /** WhatsApp's own status scale (docs/acks.md): -1 failed, 0 not yet handed over, 1 pending, 2 server, 3 delivered, 4 read, 5 played. */
    ack: integer("ack").notNull().default(0),
    /** Why a message failed (ack -1): an error code of the catalogue; null otherwise. */
    ackError: text("ack_error"),
    mediaType: text("media_type").notNull().default("chat"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    quotedMsgId: integer("quoted_msg_id"),
    isDeleted: boolean("is_deleted").notNull().default(false),
    isEdited: boolean("is_edited").notNull().default(false),
    /** Group messages: who in the group wrote it. */
    participant: text("participant"),
    participantName: text("participant_name"),
    /** Sent by Charla itself (bot, greeting, system) rather than typed by an agent. */
    isAutomatic: boolean("is_automatic").notNull().default(false),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    data: jsonb("data").$type<Record<string, unknown>>(),
    /** The sender's own id for an outgoing message (idempotency key): a retried request finds its row, never sends twice. */
    clientId: text("client_id"),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
    uniqueIndex("messages_client_key").on(t.companyId, t.ticketId, t.clientId).where(sql`${t.clientId} is not null`),
    // a replayed driver event finds its row here and changes nothing (behaviours: inbound path 2)
    uniqueIndex("messages_channel_key").on(t.whatsappId, t.channelId).where(sql`${t.channelId} is not null`),
    // the few outgoing rows still waiting for their driver: the interrupted-send sweep reads only these
    index("messages_queued_outgoing_idx").on(t.updatedAt).where(sql`${t.fromMe} and ${t.ack} = 0`),
    index("messages_company_ticket_created_idx").on(
      t.companyId,
      t.ticketId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // a company's messages newest first: the global search walks it for a common word (modules/search)
    index("messages_company_id_idx").on(t.companyId, t.id.desc().nullsFirst()),
  ],
);

export const ticketNotes = pgTable(
  "ticket_notes",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    ticketId: integer("ticket_id").notNull(),
    contactId: integer("contact_id").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note").notNull(),
    ...timestamps,
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
    index("ticket_notes_company_contact_idx").on(t.companyId, t.contactId),
  ],
);

export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    color: text("color").notNull().default("#5C59A0"),
    kanban: integer("kanban").notNull().default(0),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [unique("tags_company_id_id_key").on(t.companyId, t.id), uniqueIndex("tags_company_name_key").on(t.companyId, t.name)],
);

export const ticketTags = pgTable(
  "ticket_tags",
  {
    companyId: companyId(),
    ticketId: integer("ticket_id").notNull(),
    tagId: integer("tag_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.companyId, t.tagId], foreignColumns: [tags.companyId, tags.id] }).onDelete("cascade"),
    index("ticket_tags_company_tag_idx").on(t.companyId, t.tagId),
  ],
);
