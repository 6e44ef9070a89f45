import { sql } from "drizzle-orm";
import { IntegrationTypes } from "@charla/contracts";
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { tickets } from "./tickets.js";

/**
 * An AI prompt (secondary §3 Prompt): an area or connection pointing at it answers its contacts through
 * an OpenAI-compatible chat-completions endpoint. The API key is stored sealed (lib/secret-box.ts) and
 * never returned in full; `queueId` is the area the conversation is handed to ("Informar al sector").
 */
export const prompts = pgTable(
  "prompts",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    prompt: text("prompt").notNull(),
    voice: text("voice").notNull().default("texto"),
    voiceKey: text("voice_key").notNull().default(""),
    voiceRegion: text("voice_region").notNull().default(""),
    model: text("model").notNull().default(""),
    maxTokens: integer("max_tokens").notNull().default(500),
    temperature: real("temperature").notNull().default(1),
    /** The sealed API key; "" for none (the endpoint needs none, or OPENAI_API_KEY serves). */
    apiKeySealed: text("api_key_sealed").notNull().default(""),
    /** The endpoint's base URL; "" for the configured default (OPENAI_BASE_URL, else OpenAI's). */
    baseUrl: text("base_url").notNull().default(""),
    /** Cleared when its area is deleted: the prompt then hands over within the ticket's own area. */
    queueId: integer("queue_id"),
    maxMessages: integer("max_messages").notNull().default(10),
    ...timestamps,
  },
  (t) => [unique("prompts_company_id_id_key").on(t.companyId, t.id), index("prompts_company_idx").on(t.companyId, t.name)],
);

/**
 * A queue integration (secondary §3 QueueIntegration): where an area's, an option's or a connection's
 * tickets are sent (n8n and webhook: signed deliveries) or who talks to them (typebot). `apikey` is the
 * webhook's signing secret, sealed.
 */
export const queueIntegrations = pgTable(
  "queue_integrations",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    type: text("type", { enum: IntegrationTypes }).notNull(),
    name: text("name").notNull(),
    projectName: text("project_name").notNull().default(""),
    urlN8N: text("url_n8n").notNull().default(""),
    apikeySealed: text("apikey_sealed").notNull().default(""),
    typebotSlug: text("typebot_slug").notNull().default(""),
    typebotExpires: integer("typebot_expires").notNull().default(1),
    typebotDelayMessage: integer("typebot_delay_message").notNull().default(1000),
    typebotKeywordFinish: text("typebot_keyword_finish").notNull().default(""),
    typebotUnknownMessage: text("typebot_unknown_message").notNull().default(""),
    jsonContent: text("json_content").notNull().default(""),
    language: text("language").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    unique("queue_integrations_company_id_id_key").on(t.companyId, t.id),
    uniqueIndex("queue_integrations_company_name_key").on(t.companyId, t.name),
  ],
);

export const DeliveryStatuses = ["pending", "delivered", "retrying", "dead"] as const;
export type DeliveryStatus = (typeof DeliveryStatuses)[number];

/**
 * One event sent to a webhook or n8n integration, and its log: written in the transaction of the
 * message that causes it, with the job that sends it; `webhookId` is the Standard Webhooks `webhook-id`,
 * the same on every attempt so a receiver can drop repeats.
 */
export const integrationDeliveries = pgTable(
  "integration_deliveries",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    integrationId: integer("integration_id").notNull(),
    ticketId: integer("ticket_id"),
    messageId: integer("message_id"),
    webhookId: text("webhook_id").notNull(),
    /** "message" for a received message, "test" for the page's test event. */
    event: text("event").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    status: text("status", { enum: DeliveryStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** The receiver's last HTTP status; null when no answer came (refused, time-out). */
    lastStatus: integer("last_status"),
    lastError: text("last_error").notNull().default(""),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("integration_deliveries_webhook_id_key").on(t.webhookId),
    index("integration_deliveries_integration_idx").on(t.companyId, t.integrationId, t.id),
    // the few still being tried, for the sweep that settles those whose job died
    index("integration_deliveries_open_idx").on(t.companyId, t.webhookId).where(sql`${t.status} in ('pending', 'retrying')`),
    foreignKey({
      columns: [t.companyId, t.integrationId],
      foreignColumns: [queueIntegrations.companyId, queueIntegrations.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A ticket's conversation with a typebot: the chat session Typebot gave at start, continued until the
 * bot ends, the finish keyword, or `typebotExpires` minutes of silence (then a new one starts).
 */
export const typebotSessions = pgTable(
  "typebot_sessions",
  {
    companyId: companyId(),
    ticketId: integer("ticket_id").primaryKey(),
    integrationId: integer("integration_id").notNull(),
    sessionId: text("session_id").notNull(),
    lastAt: timestamp("last_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.companyId, t.ticketId], foreignColumns: [tickets.companyId, tickets.id] }).onDelete("cascade"),
  ],
);

/**
 * External API sends by idempotency key (`Idempotency-Key` header): a client's retry with the same key
 * gets the first answer back instead of a second message. Kept for a day.
 */
export const externalApiRequests = pgTable(
  "external_api_requests",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    key: text("key").notNull(),
    response: jsonb("response").$type<unknown>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("external_api_requests_key").on(t.companyId, t.whatsappId, t.key)],
);
