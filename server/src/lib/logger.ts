import type { FastifyRequest } from "fastify";
import { type DestinationStream, type LoggerOptions, stdSerializers } from "pino";

export const REDACTED = "[redacted]";

/**
 * Fields that carry what customers and users wrote, who they are, or how to sign in as them: message
 * bodies and captions (ours and WhatsApp's), notes, contact names, passwords and tokens, and the
 * values a failed database query was given (drizzle's `params`, PostgreSQL's `detail`).
 */
const SECRET_KEYS = [
  "password",
  "currentPassword",
  "passwordHash",
  "token",
  "refreshToken",
  "apiToken",
  "qrcode",
  "body",
  "text",
  "caption",
  "conversation",
  "lastMessage",
  "note",
  "quotedMsg",
  "contactName",
  "pushName",
  "notifyName",
  "verifiedBizName",
  "params",
  "detail",
];
/** Objects whose name is the person's: a contact's or a sender's. */
const NAMED = ["contact", "sender"];
const DEPTH = 4;

const atAnyDepth = (path: string) => Array.from({ length: DEPTH + 1 }, (_, d) => `${"*.".repeat(d)}${path}`);

export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap(atAnyDepth),
  ...NAMED.flatMap((key) => atAnyDepth(`${key}.name`)),
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
];

/** A failed query's message spells out its parameters ("Failed query: …\nparams: …"): they stay out. */
const scrubParams = (text: unknown) =>
  typeof text === "string" ? text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, `\nparams: ${REDACTED}`) : text;

/** pino's error serializer, with what the message and stack would repeat of the query's values removed. */
function errSerializer(err: unknown): unknown {
  if (!err || typeof err !== "object") return err;
  const out = (err instanceof Error ? stdSerializers.err(err) : { ...err }) as Record<string, unknown>;
  out.message = scrubParams(out.message);
  if (out.stack) out.stack = scrubParams(out.stack);
  if (out.cause && typeof out.cause === "object") out.cause = errSerializer(out.cause);
  return out;
}

/** The request as logged: the query's values (searches for a customer's name or number) are left out. */
function reqSerializer(req: FastifyRequest) {
  const [path, query] = req.url.split("?", 2);
  const keys = query ? [...new URLSearchParams(query).keys()].map((k) => `${k}=${REDACTED}`).join("&") : "";
  return {
    method: req.method,
    url: keys ? `${path}?${keys}` : path,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Fastify's logger (pino): redaction of the fields above and the serializers that keep them out of text. */
export function loggerOptions(level: string, stream?: DestinationStream): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: errSerializer, req: reqSerializer as (req: unknown) => unknown },
    ...(stream ? { stream } : {}),
  };
}
