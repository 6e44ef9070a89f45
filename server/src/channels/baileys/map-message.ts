import {
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  jidDecode,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from "baileys";
import { Ack, type AckError, locationBody as sharedLocationBody, storableText } from "@charla/contracts";
import type { InboundMessage, MediaPayload, MediaType } from "../driver.js";
import type { LidStore } from "./lid-store.js";
import { PLACEHOLDER_TYPES, placeholderBody } from "./placeholders.js";

/*
 * Baileys messages in the driver's words. Everything here is a pure function of the message except
 * `mapMessage`, which also resolves LIDs through a `LidStore` and downloads media through an
 * injected function.
 *
 * Reactions: stored as a short text message — the emoji, quoting the reacted message — so the agent
 * sees them in the ticket (as WhatsApp Web shows them in the chat list). A removed reaction (empty
 * text) is ignorable.
 */

/** What one Baileys message means to Charla. Ignorable messages are `message` with `ignorable`. */
export type Mapped =
  | { kind: "message"; message: InboundMessage }
  | { kind: "edited"; channelId: string; body: string }
  | { kind: "revoked"; channelId: string };

export const MISSED_VOICE_CALL = "Llamada perdida";
export const MISSED_VIDEO_CALL = "Videollamada perdida";

const Stub = proto.WebMessageInfo.StubType;
const Protocol = proto.Message.ProtocolMessage.Type;
const Status = proto.WebMessageInfo.Status;

const VIDEO_CALL_STUBS = new Set<number>([Stub.CALL_MISSED_VIDEO, Stub.CALL_MISSED_GROUP_VIDEO]);
const CALL_STUBS = new Set<number>([Stub.CALL_MISSED_VOICE, Stub.CALL_MISSED_GROUP_VOICE, ...VIDEO_CALL_STUBS]);

/** Media of a message, before download: which content node to fetch and how to name it. */
export type MediaSpec = { mimetype: string; fileName: string };

/** A message's content classified without any I/O. */
export type Described =
  | { kind: "ignorable"; reason: string }
  | { kind: "edited"; channelId: string; body: string }
  | { kind: "revoked"; channelId: string }
  | { kind: "content"; body: string; mediaType: MediaType; media?: MediaSpec; quotedChannelId?: string };

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "application/pdf": "pdf",
};

/** A file extension for a mimetype ("audio/ogg; codecs=opus" → "ogg"), else "bin". */
export function extensionFor(mimetype: string): string {
  const base = mimetype.split(";")[0].trim().toLowerCase();
  if (EXTENSIONS[base]) return EXTENSIONS[base];
  const sub = base.split("/")[1] ?? "";
  return /^[a-z0-9]{1,8}$/.test(sub) ? sub : "bin";
}

/** The text a message says: conversation, extended text or a caption. */
export function textOf(content: proto.IMessage | null | undefined): string {
  const m = normalizeMessageContent(content);
  if (!m) return "";
  // a NUL (or half a surrogate pair) from a phone cannot be stored: dropped, the rest of the text kept
  return storableText(
    m.conversation ||
      m.extendedTextMessage?.text ||
      m.imageMessage?.caption ||
      m.videoMessage?.caption ||
      m.documentMessage?.caption ||
      m.buttonsResponseMessage?.selectedDisplayText ||
      m.templateButtonReplyMessage?.selectedDisplayText ||
      m.listResponseMessage?.title ||
      m.listResponseMessage?.singleSelectReply?.selectedRowId ||
      m.interactiveResponseMessage?.body?.text ||
      "",
  );
}

/** `<imageUrl>|<mapsLink>|<description>` (core §2), imageUrl a data URL of the JPEG thumbnail. */
export function locationBody(loc: {
  degreesLatitude?: number | null;
  degreesLongitude?: number | null;
  name?: string | null;
  address?: string | null;
  comment?: string | null;
  caption?: string | null;
  jpegThumbnail?: Uint8Array | null;
}): string {
  const image = loc.jpegThumbnail?.length ? `data:image/jpeg;base64,${Buffer.from(loc.jpegThumbnail).toString("base64")}` : "";
  const description = [loc.name, loc.address, loc.comment, loc.caption].filter((s) => s?.trim()).join("\n");
  return sharedLocationBody({ latitude: loc.degreesLatitude ?? 0, longitude: loc.degreesLongitude ?? 0, description }, image);
}

/** A vCard for a contact message; the phone's own text when it sent one. */
function vcardOf(contact: proto.Message.IContactMessage): string {
  if (contact.vcard?.trim()) return contact.vcard;
  const name = (contact.displayName ?? "").replace(/[\r\n;]/g, " ");
  return ["BEGIN:VCARD", "VERSION:3.0", `N:;${name};;;`, `FN:${name}`, "END:VCARD"].join("\n");
}

/** The context info of whichever content node carries it (quotes live there). */
function contextInfoOf(m: proto.IMessage): proto.IContextInfo | null | undefined {
  return (
    m.extendedTextMessage?.contextInfo ??
    m.imageMessage?.contextInfo ??
    m.videoMessage?.contextInfo ??
    m.ptvMessage?.contextInfo ??
    m.audioMessage?.contextInfo ??
    m.documentMessage?.contextInfo ??
    m.stickerMessage?.contextInfo ??
    m.locationMessage?.contextInfo ??
    m.liveLocationMessage?.contextInfo ??
    m.contactMessage?.contextInfo ??
    m.contactsArrayMessage?.contextInfo ??
    m.buttonsResponseMessage?.contextInfo ??
    m.listResponseMessage?.contextInfo ??
    m.templateButtonReplyMessage?.contextInfo ??
    m.interactiveResponseMessage?.contextInfo ??
    m.pollCreationMessage?.contextInfo ??
    m.pollCreationMessageV2?.contextInfo ??
    m.pollCreationMessageV3?.contextInfo ??
    m.pollCreationMessageV5?.contextInfo ??
    m.eventMessage?.contextInfo ??
    m.groupInviteMessage?.contextInfo ??
    m.productMessage?.contextInfo ??
    m.orderMessage?.contextInfo
  );
}

const fileNameFor = (prefix: string, channelId: string, mimetype: string) => `${prefix}-${channelId}.${extensionFor(mimetype)}`;

/** Classifies a message without I/O: ignorable, an edit, a revoke, or content. */
export function describe(msg: WAMessage): Described {
  const jid = msg.key.remoteJid ?? "";
  const channelId = msg.key.id ?? "";
  if (!jid || !channelId) return { kind: "ignorable", reason: "no address" };
  if (isJidBroadcast(jid) || isJidNewsletter(jid)) return { kind: "ignorable", reason: "broadcast" };

  const stub = msg.messageStubType ?? 0;
  if (stub) {
    if (CALL_STUBS.has(stub)) {
      const body = VIDEO_CALL_STUBS.has(stub) ? MISSED_VIDEO_CALL : MISSED_VOICE_CALL;
      return { kind: "content", body, mediaType: "call_log" };
    }
    return { kind: "ignorable", reason: `stub ${stub}` };
  }

  const m = normalizeMessageContent(msg.message);
  if (!m) return { kind: "ignorable", reason: "no content" };

  if (m.protocolMessage) {
    const p = m.protocolMessage;
    const target = p.key?.id;
    if (p.type === Protocol.REVOKE && target) return { kind: "revoked", channelId: target };
    if (p.type === Protocol.MESSAGE_EDIT && target) return { kind: "edited", channelId: target, body: textOf(p.editedMessage) };
    return { kind: "ignorable", reason: `protocol ${p.type}` };
  }

  // key exchanges carry only senderKeyDistributionMessage / messageContextInfo: no content type
  const type = getContentType(m);
  if (!type) return { kind: "ignorable", reason: "key exchange" };

  const quotedChannelId = contextInfoOf(m)?.stanzaId || undefined;
  const content = (body: string, mediaType: MediaType, media?: MediaSpec): Described => ({
    kind: "content",
    body: storableText(body),
    mediaType,
    ...(media ? { media } : {}),
    ...(quotedChannelId ? { quotedChannelId } : {}),
  });

  switch (type) {
    case "conversation":
    case "extendedTextMessage":
    case "buttonsResponseMessage":
    case "templateButtonReplyMessage":
    case "listResponseMessage":
    case "interactiveResponseMessage": {
      const body = textOf(m);
      return body ? content(body, "chat") : { kind: "ignorable", reason: "empty text" };
    }
    case "imageMessage": {
      const mimetype = m.imageMessage?.mimetype || "image/jpeg";
      return content(m.imageMessage?.caption ?? "", "image", { mimetype, fileName: fileNameFor("image", channelId, mimetype) });
    }
    case "videoMessage":
    case "ptvMessage": {
      const video = m.videoMessage ?? m.ptvMessage;
      const mimetype = video?.mimetype || "video/mp4";
      return content(video?.caption ?? "", "video", { mimetype, fileName: fileNameFor("video", channelId, mimetype) });
    }
    case "audioMessage": {
      const mimetype = m.audioMessage?.mimetype || "audio/ogg; codecs=opus";
      const prefix = m.audioMessage?.ptt ? "voice" : "audio";
      return content("", "audio", { mimetype, fileName: fileNameFor(prefix, channelId, mimetype) });
    }
    case "documentMessage": {
      const doc = m.documentMessage;
      const mimetype = doc?.mimetype || "application/octet-stream";
      const fileName =
        storableText(doc?.fileName ?? "").trim() ||
        storableText(doc?.title ?? "").trim() ||
        fileNameFor("document", channelId, mimetype);
      return content(doc?.caption ?? "", "application", { mimetype, fileName });
    }
    case "stickerMessage": {
      const mimetype = m.stickerMessage?.mimetype || "image/webp";
      return content("", "sticker", { mimetype, fileName: fileNameFor("sticker", channelId, mimetype) });
    }
    case "locationMessage":
      return content(locationBody(m.locationMessage ?? {}), "locationMessage");
    case "liveLocationMessage":
      return content(locationBody(m.liveLocationMessage ?? {}), "locationMessage");
    case "contactMessage":
      return content(vcardOf(m.contactMessage ?? {}), "vcard");
    case "contactsArrayMessage": {
      // one message, every card in it: the web shows the first, the text keeps them all
      const cards = (m.contactsArrayMessage?.contacts ?? []).map(vcardOf);
      return cards.length ? content(cards.join("\n"), "vcard") : { kind: "ignorable", reason: "empty contacts" };
    }
    case "reactionMessage": {
      const r = m.reactionMessage;
      if (!r?.text) return { kind: "ignorable", reason: "reaction removed" };
      return {
        kind: "content",
        body: r.text,
        mediaType: "chat",
        ...(r.key?.id ? { quotedChannelId: r.key.id } : {}),
      };
    }
    default:
      if (PLACEHOLDER_TYPES.has(type)) return content(placeholderBody(type, m), "chat");
      return { kind: "ignorable", reason: `unsupported ${type}` };
  }
}

/** The user part of a jid: digits for a phone, the id for a group or a LID. */
export function userOf(jid: string | null | undefined): string {
  return (jid && jidDecode(jid)?.user) || "";
}

const isLid = (jid: string | null | undefined) => !!jid && /@(hosted\.)?lid$/.test(jid);
const isPn = (jid: string | null | undefined) => !!jid && /@(s\.whatsapp\.net|c\.us|hosted)$/.test(jid);

/** The phone-number alternative Baileys may attach to a key (rc14: `remoteJidAlt` / `participantAlt`). */
function altsOf(key: WAMessageKey): { remote?: string; participant?: string } {
  // older payloads (Baileys 6.7) called them senderPn / participantPn
  const legacy = key as { senderPn?: string; participantPn?: string };
  return { remote: key.remoteJidAlt ?? legacy.senderPn, participant: key.participantAlt ?? legacy.participantPn };
}

/**
 * Digits for an address. A LID becomes the phone number when the message carries it (and the
 * mapping is remembered), else the remembered one, else the LID digits themselves.
 */
export async function resolveNumber(
  jid: string | null | undefined,
  alt: string | null | undefined,
  lids: LidStore,
  ignoreAlt?: string,
): Promise<string> {
  const user = userOf(jid);
  if (!user || !isLid(jid)) return user;
  const altUser = isPn(alt) ? userOf(alt) : "";
  if (altUser && altUser !== ignoreAlt) {
    await lids.set(user, altUser).catch(() => undefined);
    return altUser;
  }
  // still unknown: the LID itself is the contact's address (replies reach it) until its number is learnt
  return (await lids.get(user).catch(() => null)) ?? `${user}@lid`;
}

export type MapDeps = {
  lids: LidStore;
  /** Bytes of a media message (Baileys' downloadMediaMessage in production). */
  download?: (msg: WAMessage) => Promise<Buffer>;
  /** The group's subject, for a group message's contact name. */
  groupSubject?: (jid: string) => Promise<string | undefined>;
  /** Digits of the linked phone: never taken for a contact's number. */
  ownNumber?: string;
  /** Whether the company drops group messages: such a message is ignorable before anything is fetched for it. */
  groupsIgnored?: () => Promise<boolean>;
  /** Whether the channel id is stored already: a replay's media is not downloaded again. */
  known?: (channelId: string) => Promise<boolean>;
  log?: { warn(obj: unknown, msg?: string): void };
};

/** A message Charla drops. */
const ignorable = (channelId: string, fromMe: boolean): Mapped => ({
  kind: "message",
  message: { channelId, number: "", fromMe, body: "", mediaType: "chat", ignorable: true },
});
/** A question to Charla; one that fails (the database away) is a no, so it never drops a message. */
const yes = (ask: () => Promise<boolean>) => ask().catch(() => false);

/** A Baileys message as the driver's event: a message (maybe ignorable), an edit or a revoke. */
export async function mapMessage(msg: WAMessage, deps: MapDeps): Promise<Mapped> {
  const described = describe(msg);
  const channelId = msg.key.id ?? "";
  const fromMe = !!msg.key.fromMe;
  if (described.kind === "edited" || described.kind === "revoked") return described;
  if (described.kind === "ignorable") return ignorable(channelId, fromMe);

  const jid = msg.key.remoteJid ?? "";
  const isGroup = !!isJidGroup(jid);
  // decided before the group's subject is fetched and its media downloaded: the pipeline would drop it
  const { groupsIgnored, known } = deps;
  if (isGroup && groupsIgnored && (await yes(groupsIgnored))) return ignorable(channelId, fromMe);
  const alts = altsOf(msg.key);
  const pushName = storableText(msg.pushName ?? "").trim() || undefined;
  const seconds = toNumber(msg.messageTimestamp);

  const message: InboundMessage = {
    channelId,
    number: "",
    fromMe,
    body: described.body,
    mediaType: described.mediaType,
    ...(described.quotedChannelId ? { quotedChannelId: described.quotedChannelId } : {}),
    ...(seconds ? { timestamp: new Date(seconds * 1000) } : {}),
  };

  if (isGroup) {
    message.number = userOf(jid);
    message.isGroup = true;
    const subject = await deps.groupSubject?.(jid).catch(() => undefined);
    if (subject) message.name = storableText(subject);
    const author = msg.key.participant || msg.participant;
    if (author) {
      const number = await resolveNumber(author, alts.participant, deps.lids);
      message.participant = { number, ...(pushName ? { name: pushName } : {}) };
    }
  } else {
    // a message sent from the company's phone: the alt may be the phone's own number, not the contact's
    message.number = await resolveNumber(jid, alts.remote, deps.lids, fromMe ? deps.ownNumber : undefined);
    if (pushName && !fromMe) message.name = pushName;
    // "Message yourself" on the company's phone: a note to self, not a customer's conversation
    if (deps.ownNumber && message.number === deps.ownNumber) return { kind: "message", message: { ...message, ignorable: true } };
  }

  if (described.media) {
    // a replay of a stored message (a reconnect's offline batch, say) is a duplicate: its bytes are not fetched again
    if (known && (await yes(() => known(channelId)))) return ignorable(channelId, fromMe);
    const media = await downloadOrNothing(msg, described.media, deps);
    if (media) message.media = media;
  }
  return { kind: "message", message };
}

/** Media bytes, or nothing: a failed download still delivers the message (with its text). */
async function downloadOrNothing(msg: WAMessage, spec: MediaSpec, deps: MapDeps): Promise<MediaPayload | null> {
  if (!deps.download) return null;
  try {
    const data = await deps.download(msg);
    return { data, mimetype: spec.mimetype, fileName: spec.fileName };
  } catch (err) {
    deps.log?.warn({ err, channelId: msg.key.id, code: "ERR_WAPP_DOWNLOAD_MEDIA" }, "whatsapp media not downloaded");
    return null;
  }
}

/**
 * Baileys' message status as Charla's ack, on WhatsApp's own numbers (docs/acks.md): 1 pending,
 * 2 server, 3 delivered, 4 read, 5 played; ERROR (WhatsApp's 0) is Charla's -1, a failure.
 */
export function ackFromStatus(status: proto.WebMessageInfo.Status | null | undefined): number | null {
  switch (status) {
    case Status.ERROR:
      return Ack.failed;
    case Status.PENDING:
      return Ack.pending;
    case Status.SERVER_ACK:
      return Ack.server;
    case Status.DELIVERY_ACK:
      return Ack.delivered;
    case Status.READ:
      return Ack.read;
    case Status.PLAYED:
      return Ack.played;
    default:
      // unknown values: acks only move up, there is nothing to record
      return null;
  }
}

/** A recipient's receipt (groups report one per participant) as an ack, in the chat it came from. */
export function ackFromReceipt(receipt: proto.IUserReceipt, remoteJid?: string | null): number | null {
  if (receipt.playedTimestamp) return inChat(remoteJid, Ack.played);
  if (receipt.readTimestamp) return inChat(remoteJid, Ack.read);
  if (receipt.receiptTimestamp) return Ack.delivered;
  return null;
}

/**
 * In a group, one member reading (or playing) a message is not the group reading it: blue ticks there
 * would tell the agent everyone saw it. Read and played count as delivered in a group chat.
 */
function inChat(remoteJid: string | null | undefined, ack: number): number {
  return ack > Ack.delivered && isJidGroup(remoteJid ?? "") ? Ack.delivered : ack;
}

export type UpdateEvent =
  | { kind: "ack"; channelId: string; ack: number; error?: AckError }
  | { kind: "edited"; channelId: string; body: string }
  | { kind: "revoked"; channelId: string };

/** A `messages.update` entry as events: an ack, an edit or a revoke (an entry may carry several). */
export function mapUpdate({ key, update }: WAMessageUpdate): UpdateEvent[] {
  const channelId = key.id;
  if (!channelId) return [];
  const events: UpdateEvent[] = [];
  if (update.status !== undefined && update.status !== null) {
    const status = ackFromStatus(update.status);
    const ack = status === null ? null : inChat(key.remoteJid, status);
    // WhatsApp says only that it failed: the reason is the catalogue's "could not send"
    if (ack === Ack.failed) events.push({ kind: "ack", channelId, ack, error: "ERR_SENDING_WAPP_MSG" });
    else if (ack !== null) events.push({ kind: "ack", channelId, ack });
  }
  if (update.messageStubType === Stub.REVOKE) {
    events.push({ kind: "revoked", channelId });
  }
  const edited = update.message?.editedMessage?.message;
  if (edited) {
    // Baileys wraps the new content; a phone may also send the edit itself as a protocol message
    const inner = edited.protocolMessage?.editedMessage ?? edited;
    events.push({ kind: "edited", channelId, body: textOf(inner) });
  }
  return events;
}

/**
 * The disappearing-messages timer a message tells of its chat, in seconds (0: off), or undefined when
 * it tells nothing. Phones put the chat's timer on every message of a disappearing chat
 * (contextInfo.expiration, the content maybe inside an ephemeralMessage); a change of the timer
 * comes as an EPHEMERAL_SETTING protocol message (Baileys turns a group's into one too).
 */
export function expirationOf(msg: WAMessage): number | undefined {
  const m = normalizeMessageContent(msg.message);
  const p = m?.protocolMessage;
  if (p) return p.type === Protocol.EPHEMERAL_SETTING ? (p.ephemeralExpiration ?? 0) : undefined;
  // only what Charla stores speaks for the chat: key exchanges, votes, call stubs and reactions carry no timer
  if (!m || msg.messageStubType || m.reactionMessage || describe(msg).kind !== "content") return undefined;
  return contextInfoOf(m)?.expiration ?? 0;
}
