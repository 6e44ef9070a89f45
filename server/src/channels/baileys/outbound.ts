import { type AnyMessageContent, type MiscMessageGenerationOptions, toNumber, type WAMessage } from "baileys";
import type { MediaPayload, ReadReceipt, SendOptions, Sent, Share } from "../driver.js";
import type { KnownChats } from "./chats.js";
import { decodeKey, encodeContent } from "./encoding.js";
import { userOf } from "./map-message.js";
import { type BaileysSocket, channelError, type DriverBase, type OpenSocket } from "./socket.js";
import { mp3ToVoiceNote } from "./voice-note.js";

const OGG_OPUS = "audio/ogg; codecs=opus";

const isVoiceNote = (mimetype: string, fileName: string) =>
  mimetype === "audio/ogg" ||
  mimetype === "audio/opus" ||
  (mimetype === "audio/mpeg" && /^audio-\d{8}-\d{6}\.mp3$/i.test(fileName));

/** A number (or a group id, or a contact's LID) as the chat's jid. */
export function jidOf(number: string, opts?: SendOptions): string {
  if (opts?.isGroup) {
    const id = number.split("@")[0].replace(/[^\d-]/g, "");
    if (!id) throw channelError("ERR_WAPP_INVALID_CONTACT", "invalid group id");
    return `${id}@g.us`;
  }
  // a contact whose number WhatsApp has not told yet is reached at its LID
  if (/^\d+@lid$/.test(number)) return number;
  const digits = number.split("@")[0].replace(/\D/g, "");
  if (!digits) throw channelError("ERR_WAPP_INVALID_CONTACT", "invalid number");
  return `${digits}@s.whatsapp.net`;
}

/** What Charla sends through a session's socket, and what it asks of WhatsApp about numbers. */
export class BaileysOutbound {
  constructor(
    private readonly base: DriverBase,
    private readonly chats: KnownChats,
    private readonly socket: OpenSocket,
  ) {}

  private live(): BaileysSocket {
    return this.socket.live();
  }

  /** A send's options: the chat's, the quote, and the id Charla recorded before the send (record-first). */
  private async sendOptions(jid: string, opts?: SendOptions): Promise<MiscMessageGenerationOptions> {
    return {
      ...(await this.quoteFor(jid, opts)),
      ...this.chats.options(jid),
      ...(opts?.messageId ? { messageId: opts.messageId } : {}),
    };
  }

  /**
   * A reply quotes the whole message when Charla knows it. A quote the phone can draw needs the quoted
   * text (Baileys builds stanzaId, participant and quotedMessage from it); an id alone shows nothing,
   * so a reply to a message Charla never stored goes as a plain message.
   */
  private async quoteFor(jid: string, opts?: SendOptions): Promise<MiscMessageGenerationOptions> {
    const id = opts?.quotedChannelId;
    if (!id) return {};
    const quoted = await this.base.opts.loadQuoted?.(id).catch(() => null);
    if (!quoted) return {};
    // the author as the message came (a LID group's member stays a LID); older rows know only digits
    const received = quoted.key ? decodeKey(quoted.key) : null;
    const digits = quoted.participant?.replace(/\D/g, "");
    const participant = received?.participant ?? (digits ? `${digits}@s.whatsapp.net` : undefined);
    return {
      quoted: {
        key: { remoteJid: jid, id, fromMe: quoted.fromMe, ...(participant ? { participant } : {}) },
        message: { conversation: quoted.body },
      },
    };
  }

  private async send(jid: string, content: AnyMessageContent, options: MiscMessageGenerationOptions): Promise<Sent> {
    const sock = this.live();
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content, options);
    } catch (err) {
      throw channelError("ERR_SENDING_WAPP_MSG", "whatsapp message not sent", err);
    }
    if (!sent?.key.id) throw channelError("ERR_SENDING_WAPP_MSG", "whatsapp message not sent");
    const seconds = toNumber(sent.messageTimestamp);
    return {
      channelId: sent.key.id,
      timestamp: seconds ? new Date(seconds * 1000) : new Date(),
      // what a retry request must get back: the whole message (media keys, quote), not its text
      content: sent.message ? encodeContent(sent.message) : undefined,
    };
  }

  async sendText(number: string, body: string, opts?: SendOptions): Promise<Sent> {
    this.live();
    const jid = jidOf(number, opts);
    return this.send(jid, { text: body }, await this.sendOptions(jid, opts));
  }

  async sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> {
    this.live();
    const jid = jidOf(number, opts);
    const options = await this.sendOptions(jid, opts);
    const mimetype = media.mimetype.split(";")[0].trim().toLowerCase();
    const caption = media.caption || undefined;
    let content: AnyMessageContent;
    if (mimetype.startsWith("image/")) content = { image: media.data, caption, mimetype: media.mimetype };
    else if (mimetype.startsWith("video/")) content = { video: media.data, caption, mimetype: media.mimetype };
    else if (mimetype.startsWith("audio/")) {
      // an audio carries no caption on WhatsApp; the caption goes after it as its own text
      content = await this.audioContent(media, mimetype);
    } else content = { document: media.data, mimetype: media.mimetype, fileName: media.fileName, caption };
    const sent = await this.send(jid, content, options);
    if (mimetype.startsWith("audio/") && caption) {
      // the audio went out: a lost caption is logged, not reported as a failed send
      await this.send(jid, { text: caption }, this.chats.options(jid)).catch((err) =>
        this.base.log.warn({ err, ...this.base.ref }, "audio caption not sent"),
      );
    }
    return sent;
  }

  /** A pin (with its description as name and address lines) or a contact card; a quote goes with either. */
  async sendShared(number: string, share: Share, opts?: SendOptions): Promise<Sent> {
    this.live();
    const jid = jidOf(number, opts);
    const options = await this.sendOptions(jid, opts);
    let content: AnyMessageContent;
    if (share.kind === "location") {
      const { latitude, longitude, description } = share.location;
      // phones show the first line as the place's name and the rest as its address
      const [name, ...address] = (description ?? "").split("\n");
      content = {
        location: {
          degreesLatitude: latitude,
          degreesLongitude: longitude,
          ...(name?.trim() ? { name: name.trim() } : {}),
          ...(address.join(" ").trim() ? { address: address.join(" ").trim() } : {}),
        },
      };
    } else content = { contacts: { displayName: share.name, contacts: [{ displayName: share.name, vcard: share.vcard }] } };
    return this.send(jid, content, options);
  }

  /**
   * A voice note goes as Ogg/Opus, the only form phones play as one; the composer's MP3 is turned into
   * it here. One that cannot be goes as an audio file, which phones play, rather than not at all.
   */
  private async audioContent(media: MediaPayload, mimetype: string): Promise<AnyMessageContent> {
    if (!isVoiceNote(mimetype, media.fileName)) return { audio: media.data, mimetype: media.mimetype, ptt: false };
    if (mimetype !== "audio/mpeg") return { audio: media.data, mimetype: OGG_OPUS, ptt: true };
    try {
      const note = await mp3ToVoiceNote(media.data);
      return { audio: note.data, mimetype: OGG_OPUS, ptt: true, seconds: note.seconds };
    } catch (err) {
      this.base.log.warn({ err, ...this.base.ref }, "voice note not converted to Ogg/Opus; sent as an audio file");
      return { audio: media.data, mimetype: media.mimetype, ptt: false };
    }
  }

  async deleteForEveryone(number: string, channelId: string, fromMe: boolean, opts?: SendOptions): Promise<void> {
    const sock = this.live();
    const jid = jidOf(number, opts);
    try {
      await sock.sendMessage(jid, { delete: { remoteJid: jid, id: channelId, fromMe } });
    } catch (err) {
      throw channelError("ERR_DELETE_WAPP_MSG", "whatsapp message not deleted", err);
    }
  }

  /**
   * Receipts name each message as it was received: its chat (a LID chat stays a LID chat) and, in a
   * group, its author; WhatsApp ignores a group receipt without one. Messages stored before their
   * key was kept fall back to the contact's jid.
   */
  async markRead(number: string, receipts: ReadReceipt[], opts?: SendOptions): Promise<void> {
    const sock = this.live();
    if (!receipts.length) return;
    const jid = jidOf(number, opts);
    await sock.readMessages(
      receipts.map(({ channelId, key }) => {
        const known = key ? decodeKey(key) : null;
        return {
          remoteJid: known?.remoteJid ?? jid,
          id: channelId,
          fromMe: false,
          ...(known?.participant ? { participant: known.participant } : {}),
        };
      }),
    );
  }

  /** The contact's picture; null whenever it cannot be had (no session, none set, private). */
  async profilePicture(number: string): Promise<string | null> {
    const sock = this.socket.open();
    if (!sock) return null;
    try {
      return (await sock.profilePictureUrl(jidOf(number), "image")) ?? null;
    } catch {
      return null;
    }
  }

  async checkNumber(number: string): Promise<string | null> {
    const sock = this.live();
    const digits = number.replace(/\D/g, "");
    if (digits.length < 5 || digits.length > 20) throw channelError("ERR_WAPP_INVALID_CONTACT", "invalid number");
    let found: { jid: string; exists: boolean }[] | undefined;
    try {
      found = await sock.onWhatsApp(`${digits}@s.whatsapp.net`);
    } catch (err) {
      throw channelError("ERR_WAPP_CHECK_CONTACT", "whatsapp number not checked", err);
    }
    const hit = found?.find((r) => r.exists);
    return hit ? userOf(hit.jid) || null : null;
  }

  async typing(number: string, on: boolean, opts?: SendOptions): Promise<void> {
    const sock = this.live();
    await sock.sendPresenceUpdate?.(on ? "composing" : "paused", jidOf(number, opts));
  }
}
