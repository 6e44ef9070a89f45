import type {
  AnyMessageContent,
  BaileysEventMap,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  proto,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
} from "baileys";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { DriverContext } from "../driver.js";
import type { ContactsBookStore } from "./contacts-book.js";
import type { LidStore } from "./lid-store.js";
import type { WaVersion } from "./wa-version.js";

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
  groupFetchAllParticipating?(): Promise<Record<string, GroupMetadata>>;
  updateMediaMessage?(msg: WAMessage): Promise<WAMessage>;
  signalRepository?: { lidMapping: { getPNForLID(lid: string): Promise<string | null> } };
};
export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/** Listens to one event of one socket, for as long as that socket is the driver's. */
export type SocketListen = <T extends keyof BaileysEventMap>(event: T, handler: (arg: BaileysEventMap[T]) => void) => void;

/** The session's socket while it is open. */
export type OpenSocket = {
  /** Throws ERR_WAPP_NOT_INITIALIZED when there is none. */
  live(): BaileysSocket;
  open(): BaileysSocket | null;
};

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

/** What every part of one driver works with: its connection, its options and where it logs. */
export type DriverBase = {
  ctx: DriverContext;
  opts: BaileysDriverOptions;
  log: FastifyBaseLogger;
  ref: { companyId: number; whatsappId: number };
};

export function channelError(code: string, message: string, cause?: unknown): Error & { code: string } {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}
