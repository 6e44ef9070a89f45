import { storableText } from "@charla/contracts";
import type { ChannelEvents, InboundMessage, MediaPayload } from "../driver.js";
import { dateOf, describeMessage, type MediaSpec, PLACEHOLDERS, statusAck } from "./inbound-map.js";

type Log = { warn(obj: unknown, msg?: string): void; debug?(obj: unknown, msg?: string): void };
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Meta batches at most a few hundred updates in one POST; more than this is not Meta. */
const ITEMS_MAX = 1_000;
/** Tries of one media download (Meta's media URLs answer again within seconds after a hiccup). */
const DOWNLOAD_TRIES = 3;
const DOWNLOAD_WAIT_MS = [500, 2_000];

/**
 * A status may reach us before the send's answer gave its message the wamid (Meta answers the send,
 * then posts "sent" at once; the two can be handled on different nodes). A status younger than this
 * that found no message makes the run fail, so the job hands it over again after its backoff; older
 * ones are for messages Charla did not send (another app on the same number) and are let go.
 */
export const STATUS_AHEAD_MS = 120_000;

/** Thrown when statuses overtook their messages: the job runs the payload again (nothing else repeats). */
export class StatusesAhead extends Error {
  readonly code = "ERR_CLOUD_STATUS_AHEAD";
  constructor(readonly count: number) {
    super(`${count} status(es) ahead of their messages`);
  }
}

/** A customer's number as Meta gives it (wa_id: digits); anything else is no address. */
const numberOf = (v: unknown) => (typeof v === "string" && /^\d{5,20}$/.test(v) ? v : "");

/** The `value` of every change about messages, in order (other fields: template reviews, account notices). */
export function messageValues(payload: unknown): Json[] {
  const values: Json[] = [];
  for (const entry of arr(obj(payload).entry).slice(0, ITEMS_MAX))
    for (const change of arr(obj(entry).changes).slice(0, ITEMS_MAX)) {
      const c = obj(change);
      if (c.field === "messages") values.push(obj(c.value));
    }
  return values;
}

/** The customers' messages of a payload (each with its `from`, `id`, `timestamp`), in order. */
export function inboundMessages(payload: unknown): Json[] {
  return messageValues(payload).flatMap((v) => arr(v.messages).slice(0, ITEMS_MAX).map(obj));
}

/** The phone-number id a change is for (value.metadata.phone_number_id); "" when it says none. */
export function phoneNumberIdOf(value: Json): string {
  const id = obj(value.metadata).phone_number_id;
  return typeof id === "string" || typeof id === "number" ? String(id) : "";
}

/**
 * One verified webhook payload (Meta's `whatsapp_business_account` object) handed to Charla: each
 * customer message to `events.message` (media downloaded through `media`, by Meta's media id), each
 * status of a sent message to `events.ack`. Runs again after a crash with the same payload: the
 * pipeline stores a channel id (the wamid) once per connection, a media message already stored is
 * not downloaded again, and acks only move up. A failing event throws (the job runs the payload again).
 */
export async function receivePayload(
  payload: unknown,
  events: ChannelEvents,
  media: (mediaId: string) => Promise<MediaPayload>,
  log: Log,
  now = new Date(),
): Promise<void> {
  let ahead = 0;
  for (const value of messageValues(payload)) {
    const names = new Map<string, string>();
    for (const c of arr(value.contacts).slice(0, ITEMS_MAX).map(obj)) {
      const profileName = obj(c.profile).name;
      const name = typeof profileName === "string" ? storableText(profileName).trim().slice(0, 200) : "";
      const waId = numberOf(c.wa_id);
      if (name && waId) names.set(waId, name);
    }
    for (const m of arr(value.messages).slice(0, ITEMS_MAX).map(obj)) {
      const msg = await inboundOf(m, names, events, media, log);
      if (msg) await events.message(msg);
    }
    for (const status of arr(value.statuses).slice(0, ITEMS_MAX)) {
      const ack = statusAck(status);
      if (!ack || (await events.ack(ack.channelId, ack.ack, ack.error)) !== false) continue;
      const at = dateOf(obj(status).timestamp);
      if (at && now.getTime() - at.getTime() < STATUS_AHEAD_MS) ahead++;
    }
    // errors about the number or the app itself (not about one message): only the log can tell
    const errors = arr(value.errors);
    if (errors.length) log.warn({ errors: errors.slice(0, 5) }, "whatsapp cloud webhook reported errors");
  }
  if (ahead) throw new StatusesAhead(ahead);
}

async function inboundOf(
  m: Json,
  names: Map<string, string>,
  events: ChannelEvents,
  media: (mediaId: string) => Promise<MediaPayload>,
  log: Log,
): Promise<InboundMessage | null> {
  const channelId = typeof m.id === "string" ? m.id.slice(0, 200) : "";
  const number = numberOf(m.from);
  if (!channelId || !number) {
    log.warn({ id: channelId, type: m.type }, "whatsapp cloud message without id or sender skipped");
    return null;
  }
  const described = describeMessage(m);
  const timestamp = dateOf(m.timestamp);
  const base = {
    channelId,
    number,
    fromMe: false,
    ...(names.get(number) ? { name: names.get(number) } : {}),
    ...(timestamp ? { timestamp } : {}),
  };
  if (described.kind === "ignorable") return { ...base, body: "", mediaType: "chat", ignorable: true };
  const { body, mediaType, quotedChannelId } = described;
  const message: InboundMessage = { ...base, body, mediaType, ...(quotedChannelId ? { quotedChannelId } : {}) };
  if (!described.media) return message;
  // a replay of a stored message: its bytes are not fetched again (the pipeline would drop it anyway)
  if (events.known && (await events.known(channelId).catch(() => false))) return { ...message, ignorable: true };
  const bytes = await download(described.media, media, log, channelId);
  if (bytes) return { ...message, media: bytes };
  // never a media row without its file: the agent reads that a file came and could not be fetched
  return {
    ...message,
    mediaType: "chat",
    body: [`${PLACEHOLDERS.mediaMissing} (${described.media.fileName})`, body].filter(Boolean).join("\n"),
  };
}

/** The file, under the name and type the payload gave it; null once every try failed (logged). */
async function download(
  spec: MediaSpec,
  media: (mediaId: string) => Promise<MediaPayload>,
  log: Log,
  channelId: string,
): Promise<MediaPayload | null> {
  for (let attempt = 0; attempt < DOWNLOAD_TRIES; attempt++) {
    try {
      const got = await media(spec.id);
      return { data: got.data, mimetype: spec.mimetype || got.mimetype, fileName: spec.fileName };
    } catch (err) {
      const last = attempt === DOWNLOAD_TRIES - 1;
      if (last) {
        log.warn({ err, channelId, mediaId: spec.id, code: "ERR_WAPP_DOWNLOAD_MEDIA" }, "whatsapp cloud media not downloaded");
        return null;
      }
      await new Promise((r) => setTimeout(r, DOWNLOAD_WAIT_MS[attempt] ?? 2_000));
    }
  }
  return null;
}
