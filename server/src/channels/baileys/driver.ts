import type { proto } from "baileys";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import {
  type ChannelDriver,
  type ChannelGroup,
  type DriverContext,
  type DriverFactory,
  type MediaPayload,
  type ReadReceipt,
  registerDriver,
  type SendOptions,
  type Sent,
  type Share,
} from "../driver.js";
import { KnownChats } from "./chats.js";
import { BaileysConnection } from "./connection.js";
import { dbContactsBook } from "./contacts-book.js";
import { BaileysInbound } from "./inbound.js";
import { dbLidStore } from "./lid-store.js";
import { LearntLids } from "./lids.js";
import { Linking } from "./linking.js";
import { BaileysOutbound } from "./outbound.js";
import { PhoneBook } from "./phone-book.js";
import type { BaileysDriverOptions, DriverBase, QuotedInfo, SocketFactory } from "./socket.js";

export { closeCodeOf, defaultBackoff } from "./close-codes.js";
export { decodeContent, encodeContent, encodeKey } from "./encoding.js";
export { CALLS_DISABLED_TEXT, DOWNLOAD_TIMEOUT_MS } from "./inbound.js";
export type { BaileysDriverOptions, BaileysSocket, QuotedInfo, SocketFactory } from "./socket.js";

/**
 * Provider "beta": WhatsApp Web multi-device through Baileys, in parts: the socket and its
 * reconnects (connection.ts), the link to the phone (linking.ts), what the socket tells Charla
 * (inbound.ts) and what Charla sends through it (outbound.ts).
 */
export class BaileysDriver implements ChannelDriver {
  readonly provider = "beta";
  private readonly connection: BaileysConnection;
  private readonly linking: Linking;
  private readonly inbound: BaileysInbound;
  private readonly outbound: BaileysOutbound;
  private readonly lids: LearntLids;
  private readonly book: PhoneBook;

  constructor(ctx: DriverContext, opts: BaileysDriverOptions) {
    const ref = { companyId: ctx.companyId, whatsappId: ctx.whatsappId };
    const base: DriverBase = { ctx, opts, log: opts.log, ref };
    const chats = new KnownChats();
    this.book = new PhoneBook(opts.contactsBook ?? dbContactsBook(opts.db, ref), opts.log, ref);
    this.lids = new LearntLids(opts.lids ?? dbLidStore(opts.db, ref), opts.log, (lid, number) =>
      ctx.events.addressResolved?.(`${lid}@lid`, number),
    );
    this.connection = new BaileysConnection(base, {
      chats,
      attach: (sock, on) => this.inbound.listen(sock, on),
      forgetBook: () => this.book.forget(),
      socketMade: () => this.linking.socketMade(),
      qrShown: (sock, qr, count) => this.linking.qrShown(sock, qr, count),
      linked: () => this.linking.linked(),
    });
    this.linking = new Linking(base, this.connection);
    this.inbound = new BaileysInbound(base, {
      chats,
      lids: this.lids,
      book: this.book,
      ownNumber: () => this.connection.ownNumber,
      baileysLogger: () => this.connection.baileysLogger(),
    });
    this.outbound = new BaileysOutbound(base, chats, this.connection);
  }

  connect(): Promise<void> {
    return this.connection.connect();
  }

  async disconnect(): Promise<void> {
    this.connection.halt();
    await this.connection.status.say("DISCONNECTED");
  }

  logout(): Promise<void> {
    return this.linking.logout();
  }

  requestNewQr(): Promise<void> {
    return this.linking.requestNewQr();
  }

  pairWithCode(number: string): Promise<void> {
    return this.linking.pairWithCode(number);
  }

  /** Resolves once every event received so far has been handed over (tests, orderly shutdown). */
  async whenIdle(): Promise<void> {
    const { connection, inbound, lids, book } = this;
    const chains = () => [inbound.updates, lids.writes, connection.status.chain, connection.credsWrites, book.writes];
    for (;;) {
      const pending = chains();
      await Promise.all([...pending, inbound.inbox.idle()]);
      if (inbound.inbox.size === 0 && chains().every((chain, i) => chain === pending[i])) return;
    }
  }

  sendText(number: string, body: string, opts?: SendOptions): Promise<Sent> {
    return this.outbound.sendText(number, body, opts);
  }

  sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> {
    return this.outbound.sendMedia(number, media, opts);
  }

  sendShared(number: string, share: Share, opts?: SendOptions): Promise<Sent> {
    return this.outbound.sendShared(number, share, opts);
  }

  deleteForEveryone(number: string, channelId: string, fromMe: boolean, opts?: SendOptions): Promise<void> {
    return this.outbound.deleteForEveryone(number, channelId, fromMe, opts);
  }

  markRead(number: string, receipts: ReadReceipt[], opts?: SendOptions): Promise<void> {
    return this.outbound.markRead(number, receipts, opts);
  }

  profilePicture(number: string): Promise<string | null> {
    return this.outbound.profilePicture(number);
  }

  checkNumber(number: string): Promise<string | null> {
    return this.outbound.checkNumber(number);
  }

  typing(number: string, on: boolean, opts?: SendOptions): Promise<void> {
    return this.outbound.typing(number, on, opts);
  }

  /** The groups the linked phone takes part in (external API list-groups). */
  async groups(): Promise<ChannelGroup[]> {
    const sock = this.connection.live();
    const all = (await sock.groupFetchAllParticipating?.()) ?? {};
    return Object.values(all).map((g) => ({ id: g.id, name: g.subject ?? "", participants: g.participants?.length ?? 0 }));
  }

  /** The phone's address book: what WhatsApp shared since the link was made, this run or an earlier one. */
  async contactsBook(): Promise<{ name: string; number: string }[]> {
    this.connection.live();
    return this.book.list();
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
  getMessage(ref: { companyId: number; whatsappId: number }, channelId: string): Promise<proto.IMessage | undefined>;
  loadQuoted?(ref: { companyId: number; whatsappId: number }, channelId: string): Promise<QuotedInfo | null>;
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
      getMessage: (channelId) => deps.getMessage(ctx, channelId),
      loadQuoted: deps.loadQuoted ? (channelId) => deps.loadQuoted!(ctx, channelId) : undefined,
      makeSocket: deps.makeSocket,
      waVersion: deps.waVersion,
    });
}

export function registerBaileysDriver(deps: BaileysDeps): void {
  registerDriver("beta", baileysFactory(deps));
}
