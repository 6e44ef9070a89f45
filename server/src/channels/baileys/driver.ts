import {
  type AnyMessageContent,
  type BaileysEventMap,
  Browsers,
  BufferJSON,
  type Contact,
  DisconnectReason,
  downloadMediaMessage,
  type GroupMetadata,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  jidNormalizedUser,
  makeWASocket,
  type MiscMessageGenerationOptions,
  proto,
  type SignalKeyStore,
  toNumber,
  type UserFacingSocketConfig,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from "baileys";
import { Ack, type StatusReason } from "@charla/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import {
  type ChannelDriver,
  type ConnectionStatus,
  type DriverContext,
  type DriverFactory,
  type MediaPayload,
  type ReadReceipt,
  registerDriver,
  type SendOptions,
  type Sent,
  type Share,
  type StatusExtra,
} from "../driver.js";
import { KeyedQueue } from "../../lib/keyed-queue.js";
import { memoryCache } from "../../lib/memory-cache.js";
import { cachedKeys, clearAuthState, type DbAuthState, useDbAuthState } from "./auth-state.js";
import { type BookEntry, type ContactsBookStore, dbContactsBook } from "./contacts-book.js";
import { DisappearingChats } from "./disappearing.js";
import { dbLidStore, type LidStore } from "./lid-store.js";
import { mp3ToVoiceNote } from "./voice-note.js";
import type { WaVersion } from "./wa-version.js";
import {
  MISSED_VIDEO_CALL,
  MISSED_VOICE_CALL,
  mapMessage,
  mapUpdate,
  ackFromReceipt,
  resolveNumber,
  userOf,
} from "./map-message.js";

/** What the driver uses of a Baileys socket; `makeWASocket`'s result has all of it, test fakes a little. */
export type BaileysSocket = {
  ev: {
    on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
    off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
  };
  user?: Contact;
  end(error: Error | undefined): Promise<void> | void;
  logout(msg?: string): Promise<void>;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  onWhatsApp(...numbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  profilePictureUrl(jid: string, type?: "preview" | "image", timeoutMs?: number): Promise<string | undefined>;
  rejectCall(callId: string, callFrom: string): Promise<void>;
  sendPresenceUpdate?(type: "composing" | "paused", toJid?: string): Promise<void>;
  requestPairingCode?(phoneNumber: string): Promise<string>;
  groupMetadata?(jid: string): Promise<GroupMetadata>;
  updateMediaMessage?(msg: WAMessage): Promise<WAMessage>;
  signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
};
export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/** What a quote needs to be drawn on the contact's phone. */
export type QuotedInfo = {
  fromMe: boolean;
  body: string;
  /** Group messages: the author's digits. */
  participant?: string;
  /** A received message's address as it came (InboundMessage.channelKey): its author's own jid, a LID maybe. */
  key?: string | null;
};

export type BaileysDriverOptions = {
  db: Db;
  log: FastifyBaseLogger;
  /** Builds the socket; tests inject a fake (default: Baileys' makeWASocket). */
  makeSocket?: SocketFactory;
  /** Inbound media bytes (default: Baileys' downloadMediaMessage, with re-upload requests). */
  downloadMedia?: (msg: WAMessage, sock: BaileysSocket) => Promise<Buffer>;
  /** Milliseconds a download may take before its message goes without the media (default DOWNLOAD_TIMEOUT_MS). */
  downloadTimeoutMs?: number;
  /** Milliseconds before reconnect attempt n (0-based); default 1 s, 2 s, 4 s … capped at 30 s. */
  backoff?: (attempt: number) => number;
  /** The company's call setting; calls are rejected with a text when false. Default: allowed. */
  callsAllowed?: () => Promise<boolean>;
  /** A sent message's content, for Baileys' retry requests. Default: unknown. */
  getMessage?: (channelId: string) => Promise<proto.IMessage | undefined>;
  /** The quoted message of an outbound reply; without it only the quoted id is sent. */
  loadQuoted?: (channelId: string) => Promise<QuotedInfo | null>;
  /** QR codes shown without a scan before the session gives up (TIMEOUT). */
  maxQrRefreshes?: number;
  /** Where LIDs are remembered (default: table whatsapp_lids). */
  lids?: LidStore;
  /** Where the phone's address book is kept (default: table whatsapp_contacts). */
  contactsBook?: ContactsBookStore;
  /**
   * The WhatsApp Web version to announce (wa-version.ts); `refresh` after a 405. Default: none asked,
   * Baileys' bundled version (tests, and the demo socket, never reach the network).
   */
  waVersion?: (refresh: boolean) => Promise<WaVersion | undefined>;
  /** Milliseconds before the one automatic retry after another socket took the link (440). */
  replacedRetryMs?: number;
};

export const CALLS_DISABLED_TEXT = "Las llamadas no están disponibles, por favor envíe un mensaje.";
const DEFAULT_MAX_QR = 6;
/** WhatsApp's answer to a retired WhatsApp Web version. */
const VERSION_REFUSED = 405;
/** Session errors that a reconnect may cure once or twice, but not forever. */
const BOUNDED_CODES = new Set<number>([DisconnectReason.badSession, DisconnectReason.multideviceMismatch, 419]);
const BOUNDED_ATTEMPTS = 5;
const REPLACED_RETRY_MS = 60_000;
/** A replacement this long after the last one is news again: its one retry is allowed. */
const REPLACED_FORGOTTEN_MS = 60 * 60_000;
const GROUP_SUBJECT_TTL_MS = 60 * 60_000;
/**
 * How long one inbound download may take. Baileys' download sets no time limit (only the HTTP client's
 * idle timeouts, minutes long), and a chat's messages wait for each other: past this, the message is
 * delivered without its media, as when the download fails.
 */
export const DOWNLOAD_TIMEOUT_MS = 60_000;

export const defaultBackoff = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

function channelError(code: string, message: string, cause?: unknown): Error & { code: string } {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

/** The HTTP-like status code Baileys attaches (a Boom) to the error that closed the connection. */
export function closeCodeOf(error: unknown): number | undefined {
  const e = error as { output?: { statusCode?: number }; statusCode?: number } | undefined;
  return e?.output?.statusCode ?? e?.statusCode;
}

const OGG_OPUS = "audio/ogg; codecs=opus";

const isVoiceNote = (mimetype: string, fileName: string) =>
  mimetype === "audio/ogg" ||
  mimetype === "audio/opus" ||
  (mimetype === "audio/mpeg" && /^audio-\d{8}-\d{6}\.mp3$/i.test(fileName));

/**
 * Provider "beta": WhatsApp Web multi-device through Baileys. One live socket at a time; it
 * reconnects on its own with a growing delay, except when the phone unlinked it (401/403: the creds
 * are forgotten) or nobody scanned the QR (TIMEOUT).
 */
export class BaileysDriver implements ChannelDriver {
  readonly provider = "beta";

  private sock: BaileysSocket | null = null;
  private detachers: (() => void)[] = [];
  /** Bumped on every socket change: a socket being built for an older generation is dropped. */
  private generation = 0;
  private connected = false;
  /** disconnect()/logout(): no reconnect until connect() or requestNewQr(). */
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private qrCount = 0;
  private qrOnThisSocket = false;
  private auth: (DbAuthState & { keys: SignalKeyStore }) | null = null;
  private ownNumber = "";
  private lastStatus: ConnectionStatus | null = null;
  /** 405s in a row: the first fetches the version again, the second stops. */
  private versionRefusals = 0;
  /** Consecutive closes with a bounded code, since the last open. */
  private boundedCloses = 0;
  private lastReplacedAt = 0;
  /** The phone number to link by code instead of QR (pairWithCode), until the link opens. */
  private pairingNumber: string | null = null;
  private codeAsked = false;
  private readonly contacts = new Map<string, string>();
  /** Groups' metadata, fetched once an hour at most: the subject names the ticket, Baileys sends with it. */
  private readonly groups = memoryCache(GROUP_SUBJECT_TTL_MS, 2_000);
  /** How often each message was asked for again, kept across this driver's sockets (Baileys' own is per socket). */
  private readonly retryCounts = memoryCache(60 * 60_000, 10_000);
  private readonly lids: LidStore;
  /**
   * Inbound messages, each chat's in arrival order ("chat:<jid>"), chats apart at once: a slow download
   * holds up its own chat only. A message being handed over also holds "msg:<id>", where updates of it
   * wait (an ack or a revoke never lands before its row).
   */
  private readonly inbox = new KeyedQueue();
  /** Acks, edits and revokes of messages not in the inbox, one at a time, beside the messages. */
  private updates: Promise<void> = Promise.resolve();
  /** LID mappings being written: messages received after one wait for it, so they resolve through it. */
  private lidWrites: Promise<void> = Promise.resolve();
  /** Chats' disappearing timers, as their messages tell them: every send there carries its chat's. */
  private readonly disappearing = new DisappearingChats();
  private statuses: Promise<void> = Promise.resolve();
  private credsWrites: Promise<void> = Promise.resolve();
  private bookWrites: Promise<void> = Promise.resolve();
  private readonly book: ContactsBookStore;

  constructor(
    private readonly ctx: DriverContext,
    private readonly opts: BaileysDriverOptions,
  ) {
    this.book = opts.contactsBook ?? dbContactsBook(opts.db, this.ref);
    this.lids = announcing(opts.lids ?? dbLidStore(opts.db, this.ref), (lid, number) =>
      this.ctx.events.addressResolved?.(`${lid}@lid`, number),
    );
  }

  private get ref() {
    return { companyId: this.ctx.companyId, whatsappId: this.ctx.whatsappId };
  }

  private get log() {
    return this.opts.log;
  }

  // ─── lifecycle ────────────────────────────────────────────────────────────

  async connect(): Promise<void> {
    this.stopped = false;
    this.attempt = 0;
    this.qrCount = 0;
    this.versionRefusals = 0;
    this.boundedCloses = 0;
    this.lastReplacedAt = 0;
    await this.openSocket();
  }

  async disconnect(): Promise<void> {
    this.halt();
    await this.emitStatus("DISCONNECTED");
  }

  /** Unlinks the phone (when linked), forgets the creds and stops. */
  async logout(): Promise<void> {
    const sock = this.sock;
    const wasConnected = this.connected;
    this.halt({ end: false });
    if (sock) {
      if (wasConnected) await sock.logout().catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp logout failed"));
      await this.endSocket(sock);
    }
    await this.forgetLink();
    await this.emitStatus("DISCONNECTED");
  }

  /** The "new QR" button: forget the link and pair again. */
  async requestNewQr(): Promise<void> {
    this.pairingNumber = null;
    const sock = this.sock;
    const wasConnected = this.connected;
    this.halt({ end: false });
    if (sock) {
      if (wasConnected) await sock.logout().catch(() => undefined);
      await this.endSocket(sock);
    }
    await this.forgetLink();
    await this.connect();
  }

  /**
   * Link by a code typed on the phone instead of the QR. Asked as soon as the socket is waiting for a
   * link (at once if it already is, else at its first QR); a linked session has nothing to pair.
   */
  async pairWithCode(number: string): Promise<void> {
    const digits = number.replace(/\D/g, "");
    if (digits.length < 8 || digits.length > 20) throw channelError("ERR_WAPP_INVALID_CONTACT", "invalid number");
    if (this.connected) return;
    this.pairingNumber = digits;
    const sock = this.sock;
    if (sock && this.qrOnThisSocket && !this.codeAsked) await this.showPairingCode(sock);
    // a stopped session (TIMEOUT) starts again, and its first QR asks for the code
    else if (!sock && this.stopped) await this.connect();
  }

  private async showPairingCode(sock: BaileysSocket) {
    const number = this.pairingNumber;
    if (!number || !sock.requestPairingCode) return;
    this.codeAsked = true;
    try {
      const code = await sock.requestPairingCode(number);
      if (this.sock !== sock || this.connected) return;
      // the code goes where the QR goes: to those who may manage connections only
      await this.emitStatus("PAIRING", { qrcode: code });
    } catch (err) {
      this.codeAsked = false;
      this.log.warn({ err, ...this.ref }, "whatsapp pairing code not obtained");
      throw channelError("ERR_WAPP_NOT_INITIALIZED", "pairing code not obtained", err);
    }
  }

  /** Resolves once every event received so far has been handed over (tests, orderly shutdown). */
  async whenIdle(): Promise<void> {
    const chains = () => [this.updates, this.lidWrites, this.statuses, this.credsWrites, this.bookWrites];
    for (;;) {
      const pending = chains();
      await Promise.all([...pending, this.inbox.idle()]);
      if (this.inbox.size === 0 && chains().every((chain, i) => chain === pending[i])) return;
    }
  }

  /** Stops everything: no socket, no pending reconnect, no socket being built. */
  private halt({ end = true }: { end?: boolean } = {}) {
    this.stopped = true;
    this.generation++;
    this.clearReconnect();
    if (end) this.closeSocket();
    else this.detach();
  }

  private async forgetLink() {
    this.auth = null;
    // a creds write already under way must not bring the forgotten link back
    await this.credsWrites;
    await clearAuthState(this.opts.db, this.ref).catch((err) =>
      this.log.error({ err, ...this.ref }, "whatsapp auth not cleared"),
    );
    // another phone may be linked next: its book is its own
    this.contacts.clear();
    await this.bookWrites;
    await this.book.clear().catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp contacts book not cleared"));
  }

  private clearReconnect() {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  /** Ends the current socket (its listeners first, so its own close event reaches nobody). */
  private closeSocket() {
    const sock = this.detach();
    if (sock) void this.endSocket(sock);
  }

  private detach(): BaileysSocket | null {
    const sock = this.sock;
    for (const off of this.detachers) off();
    this.detachers = [];
    this.sock = null;
    this.connected = false;
    return sock;
  }

  private async endSocket(sock: BaileysSocket) {
    try {
      await sock.end(undefined);
    } catch (err) {
      this.log.debug({ err, ...this.ref }, "whatsapp socket end failed");
    }
  }

  private async openSocket(): Promise<void> {
    this.clearReconnect();
    this.closeSocket();
    const generation = ++this.generation;
    const logger = this.baileysLogger();
    if (!this.auth) {
      const loaded = await useDbAuthState(this.opts.db, this.ref);
      this.auth = { ...loaded, keys: cachedKeys(loaded.state.keys, logger) };
    }
    const auth = this.auth;
    const version = await this.opts.waVersion?.(this.versionRefusals > 0).catch(() => undefined);
    // disconnected, or another socket was asked for, while the auth state and version loaded
    if (generation !== this.generation || this.stopped) return;
    const make = this.opts.makeSocket ?? ((config: UserFacingSocketConfig) => makeWASocket(config));
    const sock = make({
      auth: { creds: auth.state.creds, keys: auth.keys },
      logger,
      browser: Browsers.ubuntu("Chrome"),
      // agents' phones keep their notifications
      markOnlineOnConnect: false,
      // messages Charla sends are stored by the sender; an echo would race that write
      emitOwnEvents: false,
      syncFullHistory: false,
      ...(version ? { version } : {}),
      getMessage: async (key) => (key.id ? this.opts.getMessage?.(key.id) : undefined),
      // status updates, channels and broadcast lists are not conversations: not even decrypted
      shouldIgnoreJid: (jid) => !!(isJidBroadcast(jid) || isJidNewsletter(jid)),
      msgRetryCounterCache: this.retryCounts,
      cachedGroupMetadata: async (jid) => this.groups.get<GroupMetadata>(jid),
    });
    this.sock = sock;
    this.qrOnThisSocket = false;
    this.codeAsked = false;
    this.listen(sock);
  }

  private baileysLogger() {
    const quiet = ["fatal", "error", "silent"].includes(this.log.level) ? this.log.level : "warn";
    return this.log.child({ whatsappId: this.ctx.whatsappId, module: "baileys" }, { level: quiet });
  }

  private listen(sock: BaileysSocket) {
    const on = <T extends keyof BaileysEventMap>(event: T, handler: (arg: BaileysEventMap[T]) => void) => {
      // a socket replaced meanwhile says nothing more
      const listener = (arg: BaileysEventMap[T]) => {
        if (this.sock === sock) handler(arg);
      };
      sock.ev.on(event, listener);
      this.detachers.push(() => sock.ev.off(event, listener));
    };
    on("connection.update", (update) => this.onConnectionUpdate(sock, update));
    on("creds.update", () => this.saveCreds());
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
          this.update(channelId, () => this.ctx.events.ack(channelId, ack));
        }
      }
    });
    on("call", (calls) => {
      // on a lane of their own: a call is turned down at once, whatever a chat is downloading
      for (const call of calls) if (call.status === "offer") this.lane("calls", () => this.onCall(sock, call));
    });
    on("contacts.upsert", (contacts) => this.rememberContacts(contacts));
    on("contacts.update", (contacts) => this.rememberContacts(contacts));
    on("messaging-history.set", ({ contacts, lidPnMappings }) => {
      this.rememberContacts(contacts);
      for (const m of lidPnMappings ?? []) this.rememberLid(m.lid, m.pn);
    });
    on("lid-mapping.update", ({ lid, pn }) => this.rememberLid(lid, pn));
    on("groups.update", (groups) => {
      for (const g of groups) {
        const known = g.id ? this.groups.get<GroupMetadata>(g.id) : undefined;
        if (known && g.id) this.groups.set(g.id, { ...known, ...g });
      }
    });
  }

  private onConnectionUpdate(sock: BaileysSocket, update: BaileysEventMap["connection.update"]) {
    if (update.qr) {
      this.qrCount++;
      this.qrOnThisSocket = true;
      if (this.qrCount > (this.opts.maxQrRefreshes ?? DEFAULT_MAX_QR)) return this.giveUp();
      // linking by code: the socket is ready for it now; its code stays valid while the QRs turn
      if (this.pairingNumber) {
        if (!this.codeAsked) void this.showPairingCode(sock);
      } else void this.emitStatus("qrcode", { qrcode: update.qr, retries: this.qrCount });
    }
    if (update.connection === "connecting") void this.emitStatus("OPENING");
    if (update.connection === "open") {
      this.connected = true;
      this.attempt = 0;
      this.qrCount = 0;
      this.pairingNumber = null;
      this.versionRefusals = 0;
      this.boundedCloses = 0;
      this.ownNumber = userOf(sock.user?.id);
      void this.emitStatus("CONNECTED", this.ownNumber ? { number: this.ownNumber } : {});
    }
    if (update.connection === "close") this.onClose(update.lastDisconnect?.error);
  }

  private onClose(error: unknown) {
    const code = closeCodeOf(error);
    const pairing = this.qrOnThisSocket;
    this.closeSocket();
    if (code === DisconnectReason.loggedOut || code === DisconnectReason.forbidden) {
      // the phone unlinked this session (or WhatsApp barred it): a new QR is the only way back
      this.log.warn({ code, ...this.ref }, "whatsapp session logged out");
      this.halt();
      void this.statusAfter(() => this.forgetLink(), "DISCONNECTED");
      return;
    }
    // another WhatsApp Web took this link (440; the session's lease keeps two Charla processes from
    // doing it): the connection says so, and tries once more after a while, as the phone's owner may
    // have opened WhatsApp Web by mistake. Replaced again soon after: it stays stopped until Retry.
    if (code === DisconnectReason.connectionReplaced) {
      const again = Date.now() - this.lastReplacedAt < REPLACED_FORGOTTEN_MS;
      this.lastReplacedAt = Date.now();
      this.log.warn({ ...this.ref, again }, "whatsapp session replaced by another socket");
      if (again) return this.stopWith("REPLACED");
      void this.emitStatus("DISCONNECTED", { reason: "REPLACED" });
      return this.scheduleReconnect(code, this.opts.replacedRetryMs ?? REPLACED_RETRY_MS);
    }
    // a retired WhatsApp Web version: fetch the current one and try again, once
    if (code === VERSION_REFUSED) {
      if (this.versionRefusals++ > 0 || !this.opts.waVersion) return this.stopWith("VERSION_REJECTED");
      return this.scheduleReconnect(code);
    }
    if (code !== undefined && BOUNDED_CODES.has(code) && ++this.boundedCloses >= BOUNDED_ATTEMPTS) {
      return this.stopWith("RECONNECT_LIMIT");
    }
    // Baileys ends a QR session nobody scanned with timedOut (408, the same code as connectionLost)
    if (code === DisconnectReason.timedOut && pairing) return this.giveUp();
    this.scheduleReconnect(code);
  }

  /** Stops for good (until Retry or a new QR) and tells why. */
  private stopWith(reason: StatusReason) {
    this.log.warn({ ...this.ref, reason }, "whatsapp session stopped");
    this.halt();
    void this.emitStatus("DISCONNECTED", { reason });
  }

  /** Too many QR codes without a scan: stop and wait for "retry" or "new QR". */
  private giveUp() {
    this.log.info({ ...this.ref, qrCount: this.qrCount }, "whatsapp QR not scanned, session stopped");
    this.halt();
    void this.emitStatus("TIMEOUT");
  }

  private scheduleReconnect(code: number | undefined, after?: number) {
    if (this.stopped) return;
    const delay = after ?? (this.opts.backoff ?? defaultBackoff)(this.attempt++);
    this.log.info({ code, delay, ...this.ref }, "whatsapp connection closed, reconnecting");
    // a replaced session waits long: it shows DISCONNECTED meanwhile, not a spinner
    if (after === undefined) void this.emitStatus("OPENING");
    this.clearReconnect();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.openSocket().catch((err) => {
        this.log.error({ err, ...this.ref }, "whatsapp reconnect failed");
        this.scheduleReconnect(undefined);
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  // ─── events to Charla ─────────────────────────────────────────────────────

  private lane(key: string, task: () => Promise<void>): Promise<void> {
    return this.inbox.run(key, () => task().catch((err) => this.log.error({ err, ...this.ref }, "whatsapp event not handled")));
  }

  /** A received message: on its chat's lane, after the LID mappings learnt before it; its updates wait for it. */
  private receive(sock: BaileysSocket, msg: WAMessage) {
    this.disappearing.tell(msg, [msg.key.remoteJid, msg.key.remoteJidAlt]);
    const lidsBefore = this.lidWrites;
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
    this.updates = this.updates.then(task).catch((err) => this.log.error({ err, ...this.ref }, "whatsapp update not handled"));
  }

  private emitStatus(status: ConnectionStatus, extra?: StatusExtra): Promise<void> {
    return this.statusAfter(async () => undefined, status, extra);
  }

  /** Emits a status after `before`, in order with the other statuses; repeated OPENINGs are said once. */
  private statusAfter(before: () => Promise<void>, status: ConnectionStatus, extra?: StatusExtra): Promise<void> {
    const run = async () => {
      await before();
      if (status === "OPENING" && this.lastStatus === "OPENING") return;
      this.lastStatus = status;
      await this.ctx.events.status(status, extra);
    };
    this.statuses = this.statuses
      .then(run)
      .catch((err) => this.log.error({ err, status, ...this.ref }, "whatsapp status not saved"));
    return this.statuses;
  }

  private saveCreds() {
    const auth = this.auth;
    if (!auth) return;
    this.credsWrites = this.credsWrites
      .then(() => auth.saveCreds())
      .catch((err) => this.log.error({ err, ...this.ref }, "whatsapp creds not saved"));
  }

  private async onMessage(sock: BaileysSocket, msg: WAMessage) {
    const { groupsIgnored, known } = this.ctx.events;
    const mapped = await mapMessage(msg, {
      lids: this.lidsFor(sock),
      download: (m) => this.download(m, sock),
      groupSubject: (jid) => this.groupSubject(sock, jid),
      ownNumber: this.ownNumber,
      groupsIgnored: groupsIgnored?.bind(this.ctx.events),
      known: known?.bind(this.ctx.events),
      log: this.log,
    });
    if (mapped.kind === "message") {
      // the chat as replies address it: a LID chat's contact may have a number by now
      const { number, isGroup, ignorable } = mapped.message;
      if (!ignorable && number && !isGroup)
        this.disappearing.tell(msg, [number.includes("@") ? number : `${number}@s.whatsapp.net`]);
      const key = msg.key.fromMe ? undefined : encodeKey(msg.key);
      await this.ctx.events.message(key ? { ...mapped.message, channelKey: key } : mapped.message);
    } else if (mapped.kind === "edited") await this.ctx.events.edited(mapped.channelId, mapped.body);
    else await this.ctx.events.revoked(mapped.channelId);
  }

  private async onUpdate(update: BaileysEventMap["messages.update"][number]) {
    for (const event of mapUpdate(update)) {
      // receipts of what we received are not acks of ours
      if (event.kind === "ack") {
        // a failure (-1) is news; a pending status (1) is what the row already says
        if (update.key.fromMe && event.ack !== Ack.pending) await this.ctx.events.ack(event.channelId, event.ack, event.error);
      } else if (event.kind === "edited") await this.ctx.events.edited(event.channelId, event.body);
      else await this.ctx.events.revoked(event.channelId);
    }
  }

  /** Calls are answered by text when the company has them off; the ticket shows the missed call. */
  private async onCall(sock: BaileysSocket, call: WACallEvent) {
    const allowed = await (this.opts.callsAllowed?.() ?? Promise.resolve(true)).catch(() => true);
    if (allowed) return;
    try {
      await sock.rejectCall(call.id, call.from);
    } catch (err) {
      this.log.warn({ err, ...this.ref }, "whatsapp call not rejected");
    }
    const caller = jidNormalizedUser(call.from);
    await sock
      .sendMessage(caller, { text: CALLS_DISABLED_TEXT }, this.chatOptions(caller))
      .catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp call notice not sent"));
    if (call.isGroup || isJidGroup(call.chatId)) return;
    const number = await resolveNumber(caller, call.callerPn, this.lidsFor(sock));
    if (!number) return;
    await this.ctx.events.message({
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
    const limit = this.opts.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(channelError("ERR_WAPP_DOWNLOAD_MEDIA", `media download over ${limit} ms`)), limit);
    });
    try {
      return await Promise.race([(this.opts.downloadMedia ?? this.defaultDownload)(msg, sock), expired]);
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
      reupload ? { reuploadRequest: reupload, logger: this.baileysLogger() } : undefined,
    );
  };

  /** The table first, then what Baileys itself learnt (remembered for next time). */
  private lidsFor(sock: BaileysSocket): LidStore {
    return {
      get: async (lid) => {
        const known = await this.lids.get(lid);
        if (known) return known;
        const pn = userOf(await sock.signalRepository?.lidMapping.getPNForLID(`${lid}@lid`).catch(() => null));
        if (pn) await this.lids.set(lid, pn).catch(() => undefined);
        return pn || null;
      },
      set: (lid, number) => this.lids.set(lid, number),
    };
  }

  private rememberLid(lidJid: string | undefined, pnJid: string | undefined) {
    const lid = userOf(lidJid);
    const pn = userOf(pnJid);
    if (!lid || !pn || !lidJid?.endsWith("lid") || !/^\d+$/.test(pn)) return;
    this.lidWrites = this.lidWrites.then(() =>
      this.lids.set(lid, pn).catch((err) => this.log.debug({ err }, "lid not remembered")),
    );
  }

  private rememberContacts(contacts: Partial<Contact>[]) {
    const changed: BookEntry[] = [];
    for (const c of contacts) {
      const pnJid = c.id?.endsWith("@s.whatsapp.net") ? c.id : c.phoneNumber;
      const number = userOf(pnJid);
      if (!number || !/^\d+$/.test(number)) continue;
      const lidJid = c.id?.endsWith("@lid") ? c.id : c.lid;
      if (lidJid) this.rememberLid(lidJid, pnJid);
      const name = c.name || c.notify || c.verifiedName || this.contacts.get(number) || "";
      if (this.contacts.get(number) !== name) changed.push({ number, name });
      this.contacts.set(number, name);
    }
    if (changed.length) this.saveBook(changed);
  }

  /** The book is written on its own chain (whenIdle waits for it), so messages never wait on a sync of thousands. */
  private saveBook(entries: BookEntry[]) {
    this.bookWrites = this.bookWrites
      .then(() => this.book.save(entries))
      .catch((err) => this.log.warn({ err, ...this.ref }, "whatsapp contacts book not saved"));
  }

  private async groupSubject(sock: BaileysSocket, jid: string): Promise<string | undefined> {
    const cached = this.groups.get<GroupMetadata>(jid);
    if (cached) return cached.subject;
    if (!sock.groupMetadata) return undefined;
    try {
      const meta = await sock.groupMetadata(jid);
      this.groups.set(jid, meta);
      return meta.subject;
    } catch {
      return undefined;
    }
  }

  // ─── outbound ─────────────────────────────────────────────────────────────

  private live(): BaileysSocket {
    if (!this.sock || !this.connected) throw channelError("ERR_WAPP_NOT_INITIALIZED", "whatsapp session not connected");
    return this.sock;
  }

  private jidOf(number: string, opts?: SendOptions): string {
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

  /** What goes with every send to a chat: its disappearing timer, when it has one (phones drop nothing then). */
  private chatOptions(jid: string): MiscMessageGenerationOptions {
    const group = isJidGroup(jid) ? this.groups.get<GroupMetadata>(jid) : undefined;
    const seconds = this.disappearing.timerOf(jid, group?.ephemeralDuration);
    return seconds ? { ephemeralExpiration: seconds } : {};
  }

  /** A send's options: the chat's, the quote, and the id Charla recorded before the send (record-first). */
  private async sendOptions(jid: string, opts?: SendOptions): Promise<MiscMessageGenerationOptions> {
    return {
      ...(await this.quoteFor(jid, opts)),
      ...this.chatOptions(jid),
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
    const quoted = await this.opts.loadQuoted?.(id).catch(() => null);
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
    const jid = this.jidOf(number, opts);
    return this.send(jid, { text: body }, await this.sendOptions(jid, opts));
  }

  async sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> {
    this.live();
    const jid = this.jidOf(number, opts);
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
      await this.send(jid, { text: caption }, this.chatOptions(jid)).catch((err) =>
        this.log.warn({ err, ...this.ref }, "audio caption not sent"),
      );
    }
    return sent;
  }

  /** A pin (with its description as name and address lines) or a contact card; a quote goes with either. */
  async sendShared(number: string, share: Share, opts?: SendOptions): Promise<Sent> {
    this.live();
    const jid = this.jidOf(number, opts);
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
      this.log.warn({ err, ...this.ref }, "voice note not converted to Ogg/Opus; sent as an audio file");
      return { audio: media.data, mimetype: media.mimetype, ptt: false };
    }
  }

  async deleteForEveryone(number: string, channelId: string, fromMe: boolean, opts?: SendOptions): Promise<void> {
    const sock = this.live();
    const jid = this.jidOf(number, opts);
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
    const jid = this.jidOf(number, opts);
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

  async profilePicture(number: string): Promise<string | null> {
    if (!this.sock || !this.connected) return null;
    try {
      const jid = this.jidOf(number);
      return (await this.sock.profilePictureUrl(jid, "image")) ?? null;
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
    await sock.sendPresenceUpdate?.(on ? "composing" : "paused", this.jidOf(number, opts));
  }

  /** The phone's address book: what WhatsApp shared since the link was made, this run or an earlier one. */
  async contactsBook(): Promise<{ name: string; number: string }[]> {
    this.live();
    await this.bookWrites;
    const stored = await this.book.all();
    const all = new Map(stored.map((e) => [e.number, e.name]));
    for (const [number, name] of this.contacts) if (name || !all.has(number)) all.set(number, name);
    return [...all].map(([number, name]) => ({ name: name || number, number }));
  }
}

/**
 * Registers provider "beta". The lead calls this once (sessions.ts) with the app's services; the
 * callbacks keep settings and stored messages out of the driver.
 */
export type BaileysDeps = {
  db: Db;
  log: FastifyBaseLogger;
  callsAllowed(companyId: number): Promise<boolean>;
  getMessage(whatsappId: number, channelId: string): Promise<proto.IMessage | undefined>;
  loadQuoted?(whatsappId: number, channelId: string): Promise<QuotedInfo | null>;
  /** Test mode's stand-in socket (default: the real one). */
  makeSocket?: SocketFactory;
  /** The current WhatsApp Web version (wa-version.ts); absent: Baileys' bundled one. */
  waVersion?: BaileysDriverOptions["waVersion"];
};

/** A factory bound to one app's database and log (several apps may share a process in tests). */
export function baileysFactory(deps: BaileysDeps): DriverFactory {
  return (ctx) =>
    new BaileysDriver(ctx, {
      db: deps.db,
      log: deps.log,
      callsAllowed: () => deps.callsAllowed(ctx.companyId),
      getMessage: (channelId) => deps.getMessage(ctx.whatsappId, channelId),
      loadQuoted: deps.loadQuoted ? (channelId) => deps.loadQuoted!(ctx.whatsappId, channelId) : undefined,
      makeSocket: deps.makeSocket,
      waVersion: deps.waVersion,
    });
}

export function registerBaileysDriver(deps: BaileysDeps): void {
  registerDriver("beta", baileysFactory(deps));
}

/** A LID store that says when a LID gets a number it did not have: its contact takes the number. */
function announcing(store: LidStore, learnt: (lid: string, number: string) => Promise<void> | undefined): LidStore {
  return {
    get: (lid) => store.get(lid),
    async set(lid, number) {
      const before = await store.get(lid).catch(() => null);
      await store.set(lid, number);
      if (before !== number) await learnt(lid, number);
    },
  };
}

/** A received message's address as stored (InboundMessage.channelKey): its chat and group author, as received. */
export function encodeKey(key: WAMessageKey): string | undefined {
  if (!key.remoteJid) return undefined;
  return JSON.stringify(
    key.participant ? { remoteJid: key.remoteJid, participant: key.participant } : { remoteJid: key.remoteJid },
  );
}

function decodeKey(text: string): { remoteJid?: string; participant?: string } | null {
  try {
    const k = JSON.parse(text) as { remoteJid?: unknown; participant?: unknown };
    return {
      remoteJid: typeof k.remoteJid === "string" ? k.remoteJid : undefined,
      participant: typeof k.participant === "string" ? k.participant : undefined,
    };
  } catch {
    return null;
  }
}

/** A sent message's proto as stored text: JSON with Baileys' Buffer encoding (media keys, hashes, thumbnails). */
export function encodeContent(message: proto.IMessage): string {
  return JSON.stringify(message, BufferJSON.replacer);
}

/** The stored text back to a proto; undefined when it is not one (it never fails a retry request). */
export function decodeContent(text: string): proto.IMessage | undefined {
  try {
    return proto.Message.fromObject(JSON.parse(text, BufferJSON.reviver));
  } catch {
    return undefined;
  }
}
