import { z } from "zod";
import { IdSchema, V, requiredName, text, looseBoolOr, looseIdOrNull, looseTextOr } from "./common.js";
import { type CloudConnectionView, CloudFields } from "./cloud.js";
import type { QueueRef } from "./users.js";

export const ConnectionStatuses = ["qrcode", "PAIRING", "OPENING", "CONNECTED", "DISCONNECTED", "TIMEOUT"] as const;
export type ConnectionStatus = (typeof ConnectionStatuses)[number];

/**
 * Why a connection stopped by itself, shown beside its status ("" when it did not): WhatsApp refused
 * the WhatsApp Web version even after a fresh one (405), another WhatsApp Web took the link again
 * (440), or WhatsApp kept closing with a session error through every retry (500, 411); a Cloud API
 * connection's failed test call on save names its catalogue code (issue 31).
 */
export const StatusReasons = [
  "",
  "VERSION_REJECTED",
  "REPLACED",
  "RECONNECT_LIMIT",
  "ERR_CLOUD_AUTH",
  "ERR_CLOUD_API",
  "ERR_CLOUD_RATE_LIMITED",
] as const;
export type StatusReason = (typeof StatusReasons)[number];

/**
 * Providers a connection may use: "beta" is WhatsApp Web through Baileys (core §3 provider, default
 * beta); "cloud" Meta's official WhatsApp Cloud API (issue 31); "simulator" the built-in phone.
 */
export const ConnectionProviders = ["beta", "simulator", "cloud"] as const;
export type ConnectionProvider = (typeof ConnectionProviders)[number];

const message = looseTextOr(text().max(4096, V.tooLong), "");
const minutes = z.coerce.number({ error: V.invalid }).int(V.invalid).min(0, V.invalid).max(100_000, V.invalid);

/**
 * Connection modal (core §5 Connection form, §9 defaults): name 2–50, the phone number required,
 * the messages, the queues (a greeting is required with more than one: ERR_WAPP_GREETING_REQUIRED).
 */
export const ConnectionForm = z
  .object({
    name: requiredName,
    /** The phone number to link; stored base64-encoded as the connection's token (core §3). */
    number: z
      .string({ error: V.required })
      .trim()
      .transform((raw) => raw.replace(/\D/g, ""))
      .pipe(text().min(1, V.required).min(8, V.tooShort).max(20, V.tooLong)),
    provider: z.enum(ConnectionProviders).optional().default("beta"),
    isDefault: looseBoolOr(false),
    greetingMessage: message,
    complationMessage: message,
    transferMessage: message,
    outOfHoursMessage: message,
    ratingMessage: message,
    expiresInactiveMessage: message,
    queueIds: z.array(IdSchema).max(100).optional().default([]),
    promptId: looseIdOrNull(),
    /** A queue integration serving the connection's tickets before any area (webhook, n8n, typebot). */
    integrationId: looseIdOrNull(),
    sendIdQueue: looseIdOrNull(),
    timeSendQueue: minutes.optional().default(0),
    maxUseBotQueues: minutes.optional().default(3),
    timeUseBotQueues: minutes.optional().default(0),
    expiresTicket: minutes.optional().default(0),
  })
  .extend(CloudFields.shape);
export type ConnectionForm = z.input<typeof ConnectionForm>;

/**
 * POST /whatsappsession/{id}/pairing-code: link by a code typed on the phone instead of the QR; the
 * number defaults to the connection's own.
 */
export const PairingCodeForm = z.object({
  number: z
    .string()
    .trim()
    .transform((raw) => raw.replace(/\D/g, ""))
    .pipe(text().min(8, V.tooShort).max(20, V.tooLong))
    .optional(),
});
export type PairingCodeForm = z.input<typeof PairingCodeForm>;

/** A connection as the page, the pickers and the session events show it. */
export type ConnectionView = {
  id: number;
  name: string;
  status: ConnectionStatus;
  statusReason: StatusReason;
  /** Only for staff who may manage connections (connections-page:actionButtons); absent for others. */
  qrcode?: string;
  retries: number;
  isDefault: boolean;
  provider: ConnectionProvider;
  /** The phone number the token encodes (digits). */
  number: string;
  /** Only for staff who may manage connections, like the QR code. */
  token?: string;
  greetingMessage: string;
  complationMessage: string;
  transferMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  promptId: number | null;
  integrationId: number | null;
  sendIdQueue: number | null;
  timeSendQueue: number;
  maxUseBotQueues: number;
  timeUseBotQueues: number;
  expiresTicket: number;
  queues: QueueRef[];
  /** A Cloud API connection's settings, for staff who may manage connections; null for other providers. */
  cloud?: CloudConnectionView | null;
  /** A Cloud API connection's webhook callback URL (absolute), for staff who may manage connections. */
  webhookUrl?: string;
  updatedAt: string;
};

/** `company-{id}-whatsappSession` payload: the live session fields (the QR code only for who may manage connections). */
export type ConnectionSessionEvent = {
  action: "update";
  session: Pick<ConnectionView, "id" | "status" | "statusReason" | "qrcode" | "retries" | "updatedAt">;
};

/** `company-{id}-whatsapp` payload. */
export type ConnectionEvent = { action: "update"; whatsapp: ConnectionView } | { action: "delete"; whatsappId: number };
