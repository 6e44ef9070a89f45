import { Ack, type AckError, locationBody, storableText } from "@charla/contracts";
import { fileExtension } from "../../lib/file-extension.js";
import type { MediaType } from "../driver.js";
import { cloudErrorCode } from "./errors.js";

/*
 * Meta's webhook payloads (Cloud API, field "messages") in the driver's words, without any I/O.
 * Every message type Meta documents becomes content the ticket shows: text, media (downloaded by
 * receive.ts), a location, contact cards, the title of a tapped button or list row, a reaction (its
 * emoji quoting the message, as the WhatsApp Web driver stores them) or a short Spanish placeholder for
 * what Charla has no view of (orders, flows, unsupported types, system notices). Nothing a customer
 * did is dropped silently; only a removed reaction and Meta's "welcome request" are ignorable.
 * Everything read from the payload is bounded: a hostile or broken payload cannot make a huge row.
 */

/** A text kept from a payload field: storable, trimmed, at most this long. */
const FIELD_MAX = 1_000;
/** A whole body (a text message, a card list): Meta's own text limit is 4,096 characters. */
export const BODY_MAX = 20_000;
/** Contact cards in one message. */
const CARDS_MAX = 20;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A string field, storable and bounded; numbers are written as text (Meta sends some ids as numbers). */
const str = (v: unknown, max = FIELD_MAX): string =>
  typeof v === "string" || typeof v === "number" ? storableText(String(v)).trim().slice(0, max) : "";
const num = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
/** "prefix: text", or the prefix alone when there is no text. */
const labelled = (prefix: string, text: string, sep = ": ") => (text ? `${prefix}${sep}${text}` : prefix);
const lines = (...parts: string[]) => parts.filter(Boolean).join("\n");
const bounded = (text: string) => text.slice(0, BODY_MAX);

/** What to download for a media message: Meta's media id, the type it announced, the name to store it under. */
export type MediaSpec = { id: string; mimetype: string; fileName: string };

/** One message of a payload, classified. */
export type Described =
  | { kind: "ignorable"; reason: string }
  | { kind: "content"; body: string; mediaType: MediaType; media?: MediaSpec; quotedChannelId?: string };

/** Placeholder texts (Spanish, as the other drivers' placeholders). */
export const PLACEHOLDERS = {
  unsupported: "⚠️ Mensaje no admitido por la API de WhatsApp",
  mediaMissing: "📎 Archivo no disponible",
  order: "🧾 Pedido",
  flow: "📝 Formulario respondido",
  numberChanged: "🔄 El cliente cambió su número de WhatsApp",
  identityChanged: "🔐 El código de seguridad del cliente cambió",
  system: "ℹ️ Aviso de WhatsApp",
  ad: "📣 Desde un anuncio",
  unknownType: "⚠️ Mensaje de un tipo no admitido",
} as const;

/** The media types and how their messages are stored. */
const MEDIA: Record<string, { mediaType: MediaType; prefix: string; mime: string }> = {
  image: { mediaType: "image", prefix: "image", mime: "image/jpeg" },
  video: { mediaType: "video", prefix: "video", mime: "video/mp4" },
  audio: { mediaType: "audio", prefix: "audio", mime: "audio/ogg" },
  document: { mediaType: "application", prefix: "document", mime: "application/octet-stream" },
  sticker: { mediaType: "sticker", prefix: "sticker", mime: "image/webp" },
};

/** A file extension for a mimetype (".ogg" for "audio/ogg; codecs=opus"), else its plain subtype, else ".bin". */
function extensionFor(mimetype: string): string {
  const known = fileExtension({ mimetype, fileName: "" });
  if (known) return known;
  const sub = mimetype.split(";")[0].trim().toLowerCase().split("/")[1] ?? "";
  return /^[a-z0-9]{1,8}$/.test(sub) ? `.${sub}` : ".bin";
}

/** A file name safe anywhere: the document's own, else "<kind>-<media id>.<ext>". */
function fileNameOf(type: string, node: Json, mediaId: string, mimetype: string): string {
  const own = str(node.filename, 255).replace(/[\\/]/g, "_");
  if (type === "document" && own) return own;
  const prefix = type === "audio" && node.voice === true ? "voice" : MEDIA[type].prefix;
  return `${prefix}-${mediaId.replace(/[^\w-]/g, "").slice(0, 80) || "media"}${extensionFor(mimetype)}`;
}

/** The "errors" Meta puts on a message it could not hand over (type "unsupported"): "code: title · details". */
function errorsText(errors: unknown): string {
  const first = obj(arr(errors)[0]);
  if (!Object.keys(first).length) return "";
  const code = str(first.code, 20);
  const title = str(first.title) || str(first.message);
  const details = str(obj(first.error_data).details) || str(first.details);
  const said = [title, details && details !== title ? details : ""].filter(Boolean).join(" · ");
  return [code, said].filter(Boolean).join(": ");
}

const vcardText = (v: string) =>
  v
    .replace(/[\r\n;\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** A vCard 3.0 for one of Meta's contact cards: name, phones (with their WhatsApp id), emails, organisation. */
export function vcardOfCard(card: unknown): string {
  const c = obj(card);
  const name = obj(c.name);
  const first = vcardText(str(name.first_name));
  const last = vcardText(str(name.last_name));
  const formatted = vcardText(str(name.formatted_name)) || [first, last].filter(Boolean).join(" ");
  const phones = arr(c.phones).slice(0, 10).map(obj);
  const fn = formatted || vcardText(str(phones[0]?.phone)) || "Contacto";
  const out = ["BEGIN:VCARD", "VERSION:3.0", `N:${last};${first || (last ? "" : fn)};;;`, `FN:${fn}`];
  for (const p of phones) {
    const phone = vcardText(str(p.phone, 40));
    const waid = str(p.wa_id, 20).replace(/\D/g, "");
    const type = vcardText(str(p.type, 20)) || "CELL";
    if (phone || waid) out.push(`TEL;type=${type}${waid ? `;waid=${waid}` : ""}:${phone || `+${waid}`}`);
  }
  for (const e of arr(c.emails).slice(0, 10).map(obj)) {
    const email = vcardText(str(e.email, 200));
    if (email) out.push(`EMAIL;type=${vcardText(str(e.type, 20)) || "INTERNET"}:${email}`);
  }
  const org = obj(c.org);
  const company = vcardText(str(org.company));
  if (company) out.push(`ORG:${company}${str(org.department) ? `;${vcardText(str(org.department))}` : ""}`);
  if (str(org.title)) out.push(`TITLE:${vcardText(str(org.title))}`);
  out.push("END:VCARD");
  return out.join("\n");
}

/** The ad or post a message came from (click-to-WhatsApp), as lines under its text. */
function referralText(referral: unknown): string {
  const r = obj(referral);
  if (!Object.keys(r).length) return "";
  const headline = str(r.headline);
  const url = str(r.source_url, 2_000);
  return lines(labelled(PLACEHOLDERS.ad, headline), str(r.body), url);
}

function orderText(order: Json): string {
  const items = arr(order.product_items);
  const count = items.length ? ` (${items.length} ${items.length === 1 ? "artículo" : "artículos"})` : "";
  return lines(`${PLACEHOLDERS.order}${count}`, str(order.text));
}

function interactiveText(node: Json): string {
  const type = str(node.type, 40);
  if (type === "button_reply") return str(obj(node.button_reply).title) || str(obj(node.button_reply).id);
  if (type === "list_reply") return str(obj(node.list_reply).title) || str(obj(node.list_reply).id);
  if (type === "nfm_reply") {
    const flow = obj(node.nfm_reply);
    return lines(labelled(PLACEHOLDERS.flow, str(flow.name)), str(flow.body) === "Sent" ? "" : str(flow.body));
  }
  return labelled(PLACEHOLDERS.unsupported, type, " · ");
}

function systemText(node: Json): string {
  const type = str(node.type, 40);
  const body = str(node.body);
  if (type === "user_changed_number") {
    const to = str(node.new_wa_id ?? node.wa_id, 20).replace(/\D/g, "");
    return to ? `${PLACEHOLDERS.numberChanged}: +${to}` : labelled(PLACEHOLDERS.numberChanged, body);
  }
  if (type === "customer_identity_changed") return PLACEHOLDERS.identityChanged;
  return labelled(PLACEHOLDERS.system, body);
}

/** Classifies one message of a webhook's `value.messages` without I/O. */
export function describeMessage(message: unknown): Described {
  const m = obj(message);
  const type = str(m.type, 40);
  const quotedChannelId = str(obj(m.context).id, 200) || undefined;
  const content = (body: string, mediaType: MediaType, media?: MediaSpec): Described => {
    const withAd = lines(body, referralText(m.referral));
    return {
      kind: "content",
      body: bounded(storableText(withAd)),
      mediaType,
      ...(media ? { media } : {}),
      ...(quotedChannelId ? { quotedChannelId } : {}),
    };
  };

  if (MEDIA[type]) {
    const node = obj(m[type]);
    const mediaId = str(node.id, 100);
    const spec = MEDIA[type];
    const mimetype = str(node.mime_type, 100) || spec.mime;
    const caption = str(node.caption, BODY_MAX);
    if (!mediaId) return content(lines(PLACEHOLDERS.mediaMissing, caption), "chat");
    return content(caption, spec.mediaType, { id: mediaId, mimetype, fileName: fileNameOf(type, node, mediaId, mimetype) });
  }

  switch (type) {
    case "text": {
      const body = str(obj(m.text).body, BODY_MAX);
      return body || m.referral ? content(body, "chat") : { kind: "ignorable", reason: "empty text" };
    }
    case "reaction": {
      const r = obj(m.reaction);
      const emoji = str(r.emoji, 40);
      // an emoji taken back comes without one: nothing to show
      if (!emoji) return { kind: "ignorable", reason: "reaction removed" };
      const target = str(r.message_id, 200);
      return { kind: "content", body: emoji, mediaType: "chat", ...(target ? { quotedChannelId: target } : {}) };
    }
    case "location": {
      const l = obj(m.location);
      const description = lines(str(l.name), str(l.address), str(l.url, 2_000));
      return content(
        locationBody({ latitude: num(l.latitude) ?? 0, longitude: num(l.longitude) ?? 0, description }),
        "locationMessage",
      );
    }
    case "contacts": {
      const cards = arr(m.contacts).slice(0, CARDS_MAX).map(vcardOfCard);
      return cards.length ? content(cards.join("\n"), "vcard") : content(PLACEHOLDERS.unsupported, "chat");
    }
    case "button":
      return content(str(obj(m.button).text) || str(obj(m.button).payload), "chat");
    case "interactive":
      return content(interactiveText(obj(m.interactive)), "chat");
    case "order":
      return content(orderText(obj(m.order)), "chat");
    case "system":
      return content(systemText(obj(m.system)), "chat");
    // the customer opened the chat for the first time: nothing written yet
    case "request_welcome":
      return { kind: "ignorable", reason: "welcome request" };
    case "unsupported":
    case "unknown":
      return content(labelled(PLACEHOLDERS.unsupported, errorsText(m.errors), " · "), "chat");
    default:
      return content(lines(labelled(PLACEHOLDERS.unknownType, type, " · "), errorsText(m.errors)), "chat");
  }
}

/**
 * Whether a message opens (or keeps open) the customer's 24-hour window: anything the customer sent.
 * System notices are WhatsApp's, and a welcome request is not a message.
 */
export function opensWindow(message: unknown): boolean {
  const type = str(obj(message).type, 40);
  return type !== "system" && type !== "request_welcome";
}

/** A Unix-seconds timestamp as a date; null when it is none. */
export function dateOf(timestamp: unknown): Date | null {
  const seconds = num(timestamp);
  return seconds !== null && seconds > 0 && seconds < 1e11 ? new Date(seconds * 1000) : null;
}

/**
 * Meta's error code on a failed message (statuses[].errors[].code) as the catalogue's reason the web
 * shows on it: the driver's mapping (errors.ts); one it has no word for is "could not send", as an ack
 * carries no reason text to fill ERR_CLOUD_API's.
 */
export function failureReason(code: number | null): AckError {
  if (code === null) return "ERR_SENDING_WAPP_MSG";
  const mapped = cloudErrorCode(code);
  return mapped === "ERR_CLOUD_API" ? "ERR_SENDING_WAPP_MSG" : mapped;
}

/** One of `value.statuses` as an ack of a message Charla sent; null for statuses Charla has no ack for. */
export function statusAck(status: unknown): { channelId: string; ack: number; error?: AckError } | null {
  const st = obj(status);
  const channelId = str(st.id, 200);
  if (!channelId) return null;
  switch (str(st.status, 20)) {
    case "sent":
      return { channelId, ack: Ack.server };
    case "delivered":
      return { channelId, ack: Ack.delivered };
    case "read":
      return { channelId, ack: Ack.read };
    case "played":
      return { channelId, ack: Ack.played };
    case "failed":
      return { channelId, ack: Ack.failed, error: failureReason(num(obj(arr(st.errors)[0]).code)) };
    default:
      // "deleted", "warning" and whatever comes later: acks only move up, nothing to record
      return null;
  }
}
