import {
  type BaileysEventMap,
  downloadMediaMessage,
  isJidGroup,
  jidNormalizedUser,
  type WACallEvent,
  type WAMessage,
} from "baileys";
import { Ack } from "@charla/contracts";
import type { FastifyBaseLogger } from "fastify";
import { KeyedQueue } from "../../lib/keyed-queue.js";
import type { KnownChats } from "./chats.js";
import { encodeKey } from "./encoding.js";
import type { LearntLids } from "./lids.js";
import { ackFromReceipt, MISSED_VIDEO_CALL, MISSED_VOICE_CALL, mapMessage, mapUpdate, resolveNumber } from "./map-message.js";
import type { PhoneBook } from "./phone-book.js";
import { type BaileysSocket, channelError, type DriverBase, type SocketListen } from "./socket.js";

export const CALLS_DISABLED_TEXT = "Las llamadas no están disponibles, por favor envíe un mensaje.";
/**
 * How long one inbound download may take. Baileys' download sets no time limit (only the HTTP client's
 * idle timeouts, minutes long), and a chat's messages wait for each other: past this, the message is
 * delivered without its media, as when the download fails.
 */
export const DOWNLOAD_TIMEOUT_MS = 60_000;

/** What the inbound side learns from the rest of the driver. */
export type InboundParts = {
  chats: KnownChats;
  lids: LearntLids;
  book: PhoneBook;
  /** The linked phone's own number, once the link opened. */
  ownNumber: () => string;
  /** Baileys' own logger (media re-upload requests log through it). */
  baileysLogger: () => FastifyBaseLogger;
};

/** What a session's socket tells Charla: messages, their updates and acks, calls, contacts. */
export class BaileysInbound {
  /**
   * Inbound messages, each chat's in arrival order ("chat:<jid>"), chats apart at once: a slow download
   * holds up its own chat only. A message being handed over also holds "msg:<id>", where updates of it
   * wait (an ack or a revoke never lands before its row).
   */
  readonly inbox = new KeyedQueue();
  /** Acks, edits and revokes of messages not in the inbox, one at a time, beside the messages. */
  updates: Promise<void> = Promise.resolve();

  constructor(
    private readonly base: DriverBase,
    private readonly parts: InboundParts,
  ) {}

  private get events() {
    return this.base.ctx.events;
  }

  private get log() {
    return this.base.log;
  }

  listen(sock: BaileysSocket, on: SocketListen) {
    const { chats, lids, book } = this.parts;
    on("messages.upsert", ({ messages }) => {
      for (const msg of messages) this.receive(sock, msg);
    });
    on("messages.update", (updates) => {
      for (const update of updates) this.update(update.key.id, () => this.onUpdate(update));
    });
    on("message-receipt.update", (receipts) => {
      for (const { key, receipt } of receipts) {
        const ack = ackFromReceipt(receipt, key.remoteJid);
        if (key.fromMe && key.id && ack !== null) {
          const channelId = key.id;
          this.update(channelId, async () => void (await this.events.ack(channelId, ack)));
        }
      }
    });
    on("call", (calls) => {
      // on a lane of their own: a call is turned down at once, whatever a chat is downloading
      for (const call of calls) if (call.status === "offer") this.lane("calls", () => this.onCall(sock, call));
    });
    on("contacts.upsert", (contacts) => book.remember(contacts, lids));
    on("contacts.update", (contacts) => book.remember(contacts, lids));
    on("messaging-history.set", ({ contacts, lidPnMappings }) => {
      book.remember(contacts, lids);
      for (const m of lidPnMappings ?? []) lids.remember(m.lid, m.pn);
    });
    on("lid-mapping.update", ({ lid, pn }) => lids.remember(lid, pn));
    on("groups.update", (groups) => chats.updateGroups(groups));
  }

  private lane(key: string, task: () => Promise<void>): Promise<void> {
    return this.inbox.run(key, () =>
      task().catch((err) => this.log.error({ err, ...this.base.ref }, "whatsapp event not handled")),
    );
  }

  /** A received message: on its chat's lane, after the LID mappings learnt before it; its updates wait for it. */
  private receive(sock: BaileysSocket, msg: WAMessage) {
    this.parts.chats.disappearing.tell(msg, [msg.key.remoteJid, msg.key.remoteJidAlt]);
    const lidsBefore = this.parts.lids.writes;
    const handed = this.lane(`chat:${msg.key.remoteJid ?? ""}`, async () => {
      await lidsBefore;
      await this.onMessage(sock, msg);
    });
    if (msg.key.id) void this.inbox.run(`msg:${msg.key.id}`, () => handed);
  }

  /** An ack, edit or revoke: after its message when that is still being handed over, else at once. */
  private update(channelId: string | null | undefined, task: () => Promise<void>) {
    if (channelId && this.inbox.busy(`msg:${channelId}`)) {
      void this.lane(`msg:${channelId}`, task);
      return;
    }
    this.updates = this.updates
      .then(task)
      .catch((err) => this.log.error({ err, ...this.base.ref }, "whatsapp update not handled"));
  }

  private async onMessage(sock: BaileysSocket, msg: WAMessage) {
    const { groupsIgnored, known } = this.events;
    const { chats } = this.parts;
    const mapped = await mapMessage(msg, {
      lids: this.parts.lids.of(sock),
      download: (m) => this.download(m, sock),
      groupSubject: (jid) => chats.groupSubject(sock, jid),
      ownNumber: this.parts.ownNumber(),
      groupsIgnored: groupsIgnored?.bind(this.events),
      known: known?.bind(this.events),
      log: this.log,
    });
    if (mapped.kind === "message") {
      // the chat as replies address it: a LID chat's contact may have a number by now
      const { number, isGroup, ignorable } = mapped.message;
      if (!ignorable && number && !isGroup)
        chats.disappearing.tell(msg, [number.includes("@") ? number : `${number}@s.whatsapp.net`]);
      const key = msg.key.fromMe ? undefined : encodeKey(msg.key);
      await this.events.message(key ? { ...mapped.message, channelKey: key } : mapped.message);
    } else if (mapped.kind === "edited") await this.events.edited(mapped.channelId, mapped.body);
    else await this.events.revoked(mapped.channelId);
  }

  private async onUpdate(update: BaileysEventMap["messages.update"][number]) {
    for (const event of mapUpdate(update)) {
      // receipts of what we received are not acks of ours
      if (event.kind === "ack") {
        // a failure (-1) is news; a pending status (1) is what the row already says
        if (update.key.fromMe && event.ack !== Ack.pending) await this.events.ack(event.channelId, event.ack, event.error);
      } else if (event.kind === "edited") await this.events.edited(event.channelId, event.body);
      else await this.events.revoked(event.channelId);
    }
  }

  /** Calls are answered by text when the company has them off; the ticket shows the missed call. */
  private async onCall(sock: BaileysSocket, call: WACallEvent) {
    const allowed = await (this.base.opts.callsAllowed?.() ?? Promise.resolve(true)).catch(() => true);
    if (allowed) return;
    try {
      await sock.rejectCall(call.id, call.from);
    } catch (err) {
      this.log.warn({ err, ...this.base.ref }, "whatsapp call not rejected");
    }
    const caller = jidNormalizedUser(call.from);
    await sock
      .sendMessage(caller, { text: CALLS_DISABLED_TEXT }, this.parts.chats.options(caller))
      .catch((err) => this.log.warn({ err, ...this.base.ref }, "whatsapp call notice not sent"));
    if (call.isGroup || isJidGroup(call.chatId)) return;
    const number = await resolveNumber(caller, call.callerPn, this.parts.lids.of(sock));
    if (!number) return;
    await this.events.message({
      channelId: call.id,
      number,
      fromMe: false,
      body: call.isVideo ? MISSED_VIDEO_CALL : MISSED_VOICE_CALL,
      mediaType: "call_log",
      timestamp: call.date,
    });
  }

  /** Media bytes within DOWNLOAD_TIMEOUT_MS; past it the download is left behind (its result unused). */
  private async download(msg: WAMessage, sock: BaileysSocket): Promise<Buffer> {
    const limit = this.base.opts.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(channelError("ERR_WAPP_DOWNLOAD_MEDIA", `media download over ${limit} ms`)), limit);
    });
    try {
      return await Promise.race([(this.base.opts.downloadMedia ?? this.defaultDownload)(msg, sock), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private readonly defaultDownload = async (msg: WAMessage, sock: BaileysSocket): Promise<Buffer> => {
    const reupload = sock.updateMediaMessage?.bind(sock);
    return downloadMediaMessage(
      msg,
      "buffer",
      {},
      reupload ? { reuploadRequest: reupload, logger: this.parts.baileysLogger() } : undefined,
    );
  };
}
