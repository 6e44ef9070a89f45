import { type BaileysEventMap, DisconnectReason, type SignalKeyStore } from "baileys";
import type { StatusReason } from "@charla/contracts";
import { memoryCache } from "../../lib/memory-cache.js";
import { cachedKeys, clearAuthState, type DbAuthState, useDbAuthState } from "./auth-state.js";
import type { KnownChats } from "./chats.js";
import {
  BOUNDED_ATTEMPTS,
  BOUNDED_CODES,
  closeCodeOf,
  DEFAULT_MAX_QR,
  defaultBackoff,
  REPLACED_FORGOTTEN_MS,
  REPLACED_RETRY_MS,
  VERSION_REFUSED,
} from "./close-codes.js";
import { userOf } from "./map-message.js";
import { baileysLogger, openBaileysSocket } from "./socket-config.js";
import { StatusLine } from "./status-line.js";
import { type BaileysSocket, channelError, type DriverBase, type OpenSocket, type SocketListen } from "./socket.js";

/** What the connection asks of the rest of the driver. */
export type ConnectionParts = {
  chats: KnownChats;
  /** A new socket: the inbound side listens to it. */
  attach(sock: BaileysSocket, on: SocketListen): void;
  /** The link is forgotten: so is the phone's address book. */
  forgetBook(): Promise<void>;
  /** Linking (linking.ts): a new socket, a QR shown on it (the QR's count), the link open. */
  socketMade(): void;
  qrShown(sock: BaileysSocket, qr: string, count: number): void;
  linked(): void;
};

/**
 * The session's socket: one live at a time; it reconnects on its own with a growing delay, except when
 * the phone unlinked it (401/403: the creds are forgotten) or nobody scanned the QR (TIMEOUT). Linking
 * by QR or code lives in linking.ts, on top of this.
 */
export class BaileysConnection implements OpenSocket {
  sock: BaileysSocket | null = null;
  private detachers: (() => void)[] = [];
  /** Bumped on every socket change: a socket being built for an older generation is dropped. */
  private generation = 0;
  connected = false;
  /** disconnect()/logout(): no reconnect until connect() or requestNewQr(). */
  stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private qrCount = 0;
  qrOnThisSocket = false;
  private auth: (DbAuthState & { keys: SignalKeyStore }) | null = null;
  ownNumber = "";
  /** 405s in a row: the first fetches the version again, the second stops. */
  private versionRefusals = 0;
  /** Consecutive closes with a bounded code, since the last open. */
  private boundedCloses = 0;
  private lastReplacedAt = 0;
  /** How often each message was asked for again, kept across this driver's sockets (Baileys' own is per socket). */
  private readonly retryCounts = memoryCache(60 * 60_000, 10_000);
  readonly status: StatusLine;
  credsWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly base: DriverBase,
    private readonly parts: ConnectionParts,
  ) {
    this.status = new StatusLine(base);
  }

  private get log() {
    return this.base.log;
  }

  live(): BaileysSocket {
    if (!this.sock || !this.connected) throw channelError("ERR_WAPP_NOT_INITIALIZED", "whatsapp session not connected");
    return this.sock;
  }

  open(): BaileysSocket | null {
    return this.sock && this.connected ? this.sock : null;
  }

  async connect(): Promise<void> {
    this.stopped = false;
    this.attempt = 0;
    this.qrCount = 0;
    this.versionRefusals = 0;
    this.boundedCloses = 0;
    this.lastReplacedAt = 0;
    await this.openSocket();
  }

  /** Stops everything: no socket, no pending reconnect, no socket being built. */
  halt({ end = true }: { end?: boolean } = {}) {
    this.stopped = true;
    this.generation++;
    this.clearReconnect();
    if (end) this.closeSocket();
    else this.detach();
  }

  async forgetLink() {
    this.auth = null;
    // a creds write already under way must not bring the forgotten link back
    await this.credsWrites;
    await clearAuthState(this.base.opts.db, this.base.ref).catch((err) =>
      this.log.error({ err, ...this.base.ref }, "whatsapp auth not cleared"),
    );
    // another phone may be linked next: its book is its own
    await this.parts.forgetBook();
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

  async endSocket(sock: BaileysSocket) {
    try {
      await sock.end(undefined);
    } catch (err) {
      this.log.debug({ err, ...this.base.ref }, "whatsapp socket end failed");
    }
  }

  private async openSocket(): Promise<void> {
    this.clearReconnect();
    this.closeSocket();
    const generation = ++this.generation;
    const logger = this.baileysLogger();
    const { opts, ref } = this.base;
    if (!this.auth) {
      const loaded = await useDbAuthState(opts.db, ref);
      this.auth = { ...loaded, keys: cachedKeys(loaded.state.keys, logger) };
    }
    const auth = this.auth;
    const version = await opts.waVersion?.(this.versionRefusals > 0).catch(() => undefined);
    // disconnected, or another socket was asked for, while the auth state and version loaded
    if (generation !== this.generation || this.stopped) return;
    const sock = openBaileysSocket(opts.makeSocket, {
      auth: { creds: auth.state.creds, keys: auth.keys },
      logger,
      version,
      getMessage: opts.getMessage,
      retryCounts: this.retryCounts,
      group: (jid) => this.parts.chats.group(jid),
    });
    this.sock = sock;
    this.qrOnThisSocket = false;
    this.parts.socketMade();
    this.listen(sock);
  }

  baileysLogger() {
    return baileysLogger(this.log, this.base.ctx.whatsappId);
  }

  private listen(sock: BaileysSocket) {
    const on: SocketListen = (event, handler) => {
      // a socket replaced meanwhile says nothing more
      const listener = (arg: Parameters<typeof handler>[0]) => {
        if (this.sock === sock) handler(arg);
      };
      sock.ev.on(event, listener);
      this.detachers.push(() => sock.ev.off(event, listener));
    };
    on("connection.update", (update) => this.onConnectionUpdate(sock, update));
    on("creds.update", () => this.saveCreds());
    this.parts.attach(sock, on);
  }

  private onConnectionUpdate(sock: BaileysSocket, update: BaileysEventMap["connection.update"]) {
    if (update.qr) {
      this.qrCount++;
      this.qrOnThisSocket = true;
      if (this.qrCount > (this.base.opts.maxQrRefreshes ?? DEFAULT_MAX_QR)) return this.giveUp();
      this.parts.qrShown(sock, update.qr, this.qrCount);
    }
    if (update.connection === "connecting") void this.status.say("OPENING");
    if (update.connection === "open") {
      this.connected = true;
      this.attempt = 0;
      this.qrCount = 0;
      this.parts.linked();
      this.versionRefusals = 0;
      this.boundedCloses = 0;
      this.ownNumber = userOf(sock.user?.id);
      void this.status.say("CONNECTED", this.ownNumber ? { number: this.ownNumber } : {});
    }
    if (update.connection === "close") this.onClose(update.lastDisconnect?.error);
  }

  private onClose(error: unknown) {
    const code = closeCodeOf(error);
    const pairing = this.qrOnThisSocket;
    this.closeSocket();
    if (code === DisconnectReason.loggedOut || code === DisconnectReason.forbidden) {
      // the phone unlinked this session (or WhatsApp barred it): a new QR is the only way back
      this.log.warn({ code, ...this.base.ref }, "whatsapp session logged out");
      this.halt();
      void this.status.after(() => this.forgetLink(), "DISCONNECTED");
      return;
    }
    // another WhatsApp Web took this link (440; the session's lease keeps two Charla processes from
    // doing it): the connection says so, and tries once more after a while, as the phone's owner may
    // have opened WhatsApp Web by mistake. Replaced again soon after: it stays stopped until Retry.
    if (code === DisconnectReason.connectionReplaced) {
      const again = Date.now() - this.lastReplacedAt < REPLACED_FORGOTTEN_MS;
      this.lastReplacedAt = Date.now();
      this.log.warn({ ...this.base.ref, again }, "whatsapp session replaced by another socket");
      if (again) return this.stopWith("REPLACED");
      void this.status.say("DISCONNECTED", { reason: "REPLACED" });
      return this.scheduleReconnect(code, this.base.opts.replacedRetryMs ?? REPLACED_RETRY_MS);
    }
    // a retired WhatsApp Web version: fetch the current one and try again, once
    if (code === VERSION_REFUSED) {
      if (this.versionRefusals++ > 0 || !this.base.opts.waVersion) return this.stopWith("VERSION_REJECTED");
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
    this.log.warn({ ...this.base.ref, reason }, "whatsapp session stopped");
    this.halt();
    void this.status.say("DISCONNECTED", { reason });
  }

  /** Too many QR codes without a scan: stop and wait for "retry" or "new QR". */
  private giveUp() {
    this.log.info({ ...this.base.ref, qrCount: this.qrCount }, "whatsapp QR not scanned, session stopped");
    this.halt();
    void this.status.say("TIMEOUT");
  }

  private scheduleReconnect(code: number | undefined, after?: number) {
    if (this.stopped) return;
    const delay = after ?? (this.base.opts.backoff ?? defaultBackoff)(this.attempt++);
    this.log.info({ code, delay, ...this.base.ref }, "whatsapp connection closed, reconnecting");
    // a replaced session waits long: it shows DISCONNECTED meanwhile, not a spinner
    if (after === undefined) void this.status.say("OPENING");
    this.clearReconnect();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.openSocket().catch((err) => {
        this.log.error({ err, ...this.base.ref }, "whatsapp reconnect failed");
        this.scheduleReconnect(undefined);
      });
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private saveCreds() {
    const auth = this.auth;
    if (!auth) return;
    this.credsWrites = this.credsWrites
      .then(() => auth.saveCreds())
      .catch((err) => this.log.error({ err, ...this.base.ref }, "whatsapp creds not saved"));
  }
}
