import type { SendOptions, Share, TemplateMessage } from "../driver.js";
import { CloudError } from "./errors.js";

/**
 * The Cloud API's message bodies (POST /{phone-number-id}/messages), built from what Charla asks to
 * send. Pure: the driver adds the recipient and posts them.
 */

type Payload = Record<string, unknown>;

/** The customer's digits, as Meta takes them; groups do not exist on the Cloud API. */
export function recipientOf(number: string, opts?: SendOptions): string {
  if (opts?.isGroup) throw new CloudError("ERR_WAPP_INVALID_CONTACT", "the Cloud API has no groups");
  const digits = number.split("@")[0].replace(/\D/g, "");
  if (digits.length < 5 || digits.length > 20) throw new CloudError("ERR_WAPP_INVALID_CONTACT", "invalid number");
  return digits;
}

/**
 * A reply names the message it answers. Only a wamid can be quoted: a message Charla stored under
 * another channel's id (a connection that changed provider) would get the whole send refused.
 */
export function contextOf(opts?: SendOptions): Payload {
  const id = opts?.quotedChannelId;
  return id?.startsWith("wamid.") ? { context: { message_id: id } } : {};
}

export function textPayload(body: string): Payload {
  return { type: "text", text: { body, preview_url: false } };
}

const BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  mp4: "video/mp4",
  "3gp": "video/3gpp",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  amr: "audio/amr",
  pdf: "application/pdf",
  txt: "text/plain",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/**
 * The file's type as Meta's upload takes it: the declared one, or, for a file declared only as bytes
 * (application/octet-stream, a send tried again), the type its name says; Meta refuses the former.
 */
export function uploadTypeOf(mimetype: string, fileName: string): string {
  const mime = mimetype.split(";")[0].trim().toLowerCase();
  if (mime && mime !== "application/octet-stream") return mime;
  const ext = /\.([a-z0-9]{1,5})$/i.exec(fileName)?.[1]?.toLowerCase() ?? "";
  return BY_EXTENSION[ext] ?? "application/octet-stream";
}

/** Which of Meta's media kinds a file goes as: the kinds' own formats, anything else as a document. */
export type MediaKind = "image" | "video" | "audio" | "sticker" | "document";
export function mediaKindOf(mimetype: string): MediaKind {
  const mime = mimetype.split(";")[0].trim().toLowerCase();
  if (mime === "image/jpeg" || mime === "image/png") return "image";
  if (mime === "image/webp") return "sticker";
  if (mime === "video/mp4" || mime === "video/3gpp") return "video";
  if (["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/opus"].includes(mime)) return "audio";
  return "document";
}

/** An uploaded file as a message: images, videos and documents carry the caption; documents their name. */
export function mediaPayload(kind: MediaKind, mediaId: string, caption: string | undefined, fileName: string): Payload {
  const media: Payload = { id: mediaId };
  if (caption && (kind === "image" || kind === "video" || kind === "document")) media.caption = caption;
  if (kind === "document" && fileName) media.filename = fileName;
  return { type: kind, [kind]: media };
}

/** Whether a caption cannot go with the file and must follow as its own text. */
export const captionFollows = (kind: MediaKind, caption: string | undefined) =>
  !!caption && (kind === "audio" || kind === "sticker");

/** A pin: the description's first line is the place's name, the rest its address (as phones show them). */
export function sharePayload(share: Share): Payload {
  if (share.kind === "location") {
    const { latitude, longitude, description } = share.location;
    const [name, ...address] = (description ?? "").split("\n");
    return {
      type: "location",
      location: {
        latitude,
        longitude,
        ...(name?.trim() ? { name: name.trim() } : {}),
        ...(address.join(" ").trim() ? { address: address.join(" ").trim() } : {}),
      },
    };
  }
  return { type: "contacts", contacts: [contactOf(share.name, share.vcard)] };
}

/**
 * A contact card in Meta's shape from the vCard Charla stores: its name (Meta wants a formatted name
 * and a first name) and every TEL line, with the WhatsApp id when the card names it (`waid=`).
 */
export function contactOf(name: string, vcard: string): Payload {
  const phones: Payload[] = [];
  for (const line of vcard.split(/\r?\n/).slice(0, 200)) {
    const m = /^(?:item\d+\.)?TEL([^:]*):(.+)$/i.exec(line.trim());
    if (!m || phones.length >= 20) continue;
    const phone = m[2].trim().slice(0, 40);
    const waId = /waid=(\d+)/i.exec(m[1])?.[1];
    const type = /type=([a-z]+)/i.exec(m[1])?.[1]?.toUpperCase();
    if (phone) phones.push({ phone, ...(waId ? { wa_id: waId } : {}), ...(type ? { type } : {}) });
  }
  const formatted = name.trim() || phones[0]?.phone?.toString() || "-";
  return { name: { formatted_name: formatted, first_name: formatted }, ...(phones.length ? { phones } : {}) };
}

/** A template with its body parameters, in order; no components when it takes none. */
export function templatePayload(template: TemplateMessage): Payload {
  const components = template.params.length
    ? [{ type: "body", parameters: template.params.map((text) => ({ type: "text", text })) }]
    : [];
  return {
    type: "template",
    template: { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) },
  };
}
