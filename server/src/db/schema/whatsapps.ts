import {
  foreignKey,
  boolean,
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
} from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { queues } from "./queues.js";

/** Connections (core §3 Connection, §9 Connection defaults). */
export const whatsapps = pgTable(
  "whatsapps",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    name: text("name").notNull(),
    status: text("status").notNull().default("DISCONNECTED"),
    /** Why the session stopped by itself (contracts StatusReason); "" otherwise. */
    statusReason: text("status_reason").notNull().default(""),
    /** The pairing QR while status is qrcode, the pairing code while PAIRING; empty otherwise. */
    qrcode: text("qrcode").notNull().default(""),
    retries: integer("retries").notNull().default(0),
    isDefault: boolean("is_default").notNull().default(false),
    provider: text("provider").notNull().default("beta"),
    /** The linked phone's number, base64-encoded (core §3 token). */
    token: text("token").notNull().default(""),
    /** Digits of the linked phone, as WhatsApp reported them. */
    number: text("number").notNull().default(""),
    greetingMessage: text("greeting_message").notNull().default(""),
    complationMessage: text("complation_message").notNull().default(""),
    transferMessage: text("transfer_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    ratingMessage: text("rating_message").notNull().default(""),
    sendIdQueue: integer("send_id_queue"),
    timeSendQueue: integer("time_send_queue").notNull().default(0),
    promptId: integer("prompt_id"),
    /** A queue integration serving this connection's tickets before any area (secondary §3). */
    integrationId: integer("integration_id"),
    /**
     * The external API's bearer secret for this connection (behaviours: External API), sealed so the
     * Token action can show it; `apiTokenHash` (sha-256, hex) finds the connection from a request.
     * Never the `token` column, which anyone can compute from the phone number.
     */
    apiTokenSealed: text("api_token_sealed").notNull().default(""),
    apiTokenHash: text("api_token_hash"),
    /**
     * Cloud API connections (provider "cloud", issue 31): Meta's ids, the secrets sealed (s.secrets),
     * the random key in the webhook's URL that finds the connection, and the template automatic
     * messages go as once the customer's 24-hour window is closed (its parameters may use `{{variables}}`).
     */
    cloudPhoneNumberId: text("cloud_phone_number_id").notNull().default(""),
    cloudBusinessAccountId: text("cloud_business_account_id").notNull().default(""),
    cloudAccessTokenSealed: text("cloud_access_token_sealed").notNull().default(""),
    cloudAppSecretSealed: text("cloud_app_secret_sealed").notNull().default(""),
    cloudVerifyTokenSealed: text("cloud_verify_token_sealed").notNull().default(""),
    cloudWebhookKey: text("cloud_webhook_key"),
    cloudTemplateName: text("cloud_template_name").notNull().default(""),
    cloudTemplateLanguage: text("cloud_template_language").notNull().default(""),
    cloudTemplateParams: jsonb("cloud_template_params").$type<string[]>().notNull().default([]),
    maxUseBotQueues: integer("max_use_bot_queues").notNull().default(3),
    timeUseBotQueues: integer("time_use_bot_queues").notNull().default(0),
    expiresTicket: integer("expires_ticket").notNull().default(0),
    expiresInactiveMessage: text("expires_inactive_message").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    unique("whatsapps_company_id_id_key").on(t.companyId, t.id),
    index("whatsapps_company_idx").on(t.companyId, t.name),
    uniqueIndex("whatsapps_api_token_hash_key").on(t.apiTokenHash),
    uniqueIndex("whatsapps_cloud_webhook_key").on(t.cloudWebhookKey),
  ],
);

/** The queues a connection offers (core §3 Connection.queues). */
export const whatsappQueues = pgTable(
  "whatsapp_queues",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    queueId: integer("queue_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.queueId] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.companyId, t.queueId], foreignColumns: [queues.companyId, queues.id] }).onDelete("cascade"),
  ],
);

/**
 * A WhatsApp Web session's auth state (Baileys creds and signal keys), one row per item, so a
 * restarted or moved session resumes without files.
 */
export const whatsappAuth = pgTable(
  "whatsapp_auth",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    /** "creds", or a signal key type (pre-key, session, sender-key, app-state-sync-key, …). */
    type: text("type").notNull(),
    keyId: text("key_id").notNull(),
    value: text("value").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.type, t.keyId] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
  ],
);

/** WhatsApp's LID addresses mapped to phone numbers, as the session learns them. */
export const whatsappLids = pgTable(
  "whatsapp_lids",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    lid: text("lid").notNull(),
    number: text("number").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.lid] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
  ],
);

/**
 * The linked phone's address book as WhatsApp Web shares it (contacts sync, history sync), kept so
 * "Importar contactos" has it after a restart, when WhatsApp does not send it again.
 */
export const whatsappContacts = pgTable(
  "whatsapp_contacts",
  {
    companyId: companyId(),
    whatsappId: integer("whatsapp_id").notNull(),
    number: text("number").notNull(),
    name: text("name").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.number] }),
    foreignKey({ columns: [t.companyId, t.whatsappId], foreignColumns: [whatsapps.companyId, whatsapps.id] }).onDelete("cascade"),
  ],
);

/**
 * Which server process runs a connection's session: a lease renewed every few seconds. A process
 * that dies stops renewing, and another takes the session once the lease has expired.
 */
export const sessionLeases = pgTable(
  "session_leases",
  {
    whatsappId: integer("whatsapp_id")
      .primaryKey()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    owner: text("owner").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("session_leases_owner_idx").on(t.owner)],
);

/** Live server processes: each renews its row with its leases, so sessions can be shared fairly. */
export const serverNodes = pgTable("server_nodes", {
  id: text("id").primaryKey(),
  seenAt: timestamp("seen_at", { withTimezone: true, mode: "date" }).notNull(),
});
