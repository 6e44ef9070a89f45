import { randomBytes } from "node:crypto";
import type { AckError, SharedLocation, StatusReason } from "@charla/contracts";

/**
 * The channel-driver interface: everything Charla asks of a WhatsApp session, and everything a
 * session tells Charla. Drivers know nothing of tickets; the pipeline knows nothing of drivers.
 */

export type MediaType =
  | "chat"
  | "image"
  | "audio"
  | "video"
  | "application"
  | "locationMessage"
  | "vcard"
  | "call_log"
  | "sticker";

export type ConnectionStatus = "qrcode" | "PAIRING" | "OPENING" | "CONNECTED" | "DISCONNECTED" | "TIMEOUT";

/** Media as bytes; drivers download inbound media before handing it over. */
export type MediaPayload = { data: Buffer; mimetype: string; fileName: string };

/** An inbound (or phone-sent, `fromMe`) message in the driver's words, before any ticket logic. */
export type InboundMessage = {
  /** The channel's own message id: the dedup key per connection. */
  channelId: string;
  /** Digits of the contact (or of the group, for group messages). */
  number: string;
  /** Push name or group subject. */
  name?: string;
  isGroup?: boolean;
  /** Group messages: the author's digits and name. */
  participant?: { number: string; name?: string };
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  media?: MediaPayload;
  /** Channel id of the message this one replies to. */
  quotedChannelId?: string;
  timestamp?: Date;
  /** Status broadcasts, protocol stubs, key exchanges: the pipeline drops these first. */
  ignorable?: boolean;
  /** The driver's own address of this message (opaque, stored as is), handed back with its read receipt. */
  channelKey?: string;
};

/** A received message to mark as read: its channel id and the address its driver gave it (channelKey). */
export type ReadReceipt = { channelId: string; key?: string | null };

export type SendOptions = {
  quotedChannelId?: string;
  /** The number is a group id. */
  isGroup?: boolean;
  /**
   * The channel id the message is to carry, recorded before the send (record-first, docs/acks.md):
   * drivers that can choose it send under it, so the phone's echo and acks find the row; others
   * return their own and the row takes that.
   */
  messageId?: string;
};

/** A location pin or a contact card (its vCard text, as stored in the message body) to send. */
export type Share = { kind: "location"; location: SharedLocation } | { kind: "contact"; name: string; vcard: string };

/** A new outgoing message id in WhatsApp Web's own format ("3EB0" and 36 hex digits). */
export function outgoingMessageId(): string {
  return `3EB0${randomBytes(18).toString("hex").toUpperCase()}`;
}
/** `content`: the message as the channel encoded it, for the channel's own retries (stored with the row). */
export type Sent = { channelId: string; timestamp: Date; content?: string };

/** What a session tells Charla. Each handler may be called again for the same event (replays). */
export type ChannelEvents = {
  message(msg: InboundMessage): Promise<void>;
  /**
   * WhatsApp's status numbers (docs/acks.md); a failure is -1 with its reason. Answers false when no
   * message of the connection has that channel id yet (the status overtook the send's answer): it is
   * tried again for a few seconds here, and a driver with a durable source (a webhook row) may also
   * hand it over again later.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers with nothing to tell (test doubles, recorders) answer nothing
  ack(channelId: string, ack: number, error?: AckError): Promise<boolean | void>;
  revoked(channelId: string): Promise<void>;
  edited(channelId: string, body: string): Promise<void>;
  status(status: ConnectionStatus, extra?: StatusExtra): Promise<void>;
  /**
   * A contact the driver could only address by a channel address (a WhatsApp LID, `…@lid`: the
   * InboundMessage.number it gave) has this phone number: the contact takes it (contacts/adopt-number.ts).
   */
  addressResolved?(address: string, number: string): Promise<void>;
  /**
   * What a driver may ask before it does costly work on a message (a media download): whether the
   * company ignores group messages (CheckMsgIsGroup; may answer from a short cache), and whether this
   * channel id is stored already (a replay). The pipeline decides again on what it is handed.
   */
  groupsIgnored?(): Promise<boolean>;
  known?(channelId: string): Promise<boolean>;
};

/** What comes with a status: the QR and its count, the linked number, why the session stopped. */
export type StatusExtra = { qrcode?: string; retries?: number; number?: string; reason?: StatusReason };

export interface ChannelDriver {
  readonly provider: string;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  sendText(number: string, body: string, opts?: SendOptions): Promise<Sent>;
  sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent>;
  sendShared(number: string, share: Share, opts?: SendOptions): Promise<Sent>;
  deleteForEveryone(number: string, channelId: string, fromMe: boolean, opts?: SendOptions): Promise<void>;
  markRead(number: string, receipts: ReadReceipt[], opts?: SendOptions): Promise<void>;
  profilePicture(number: string): Promise<string | null>;
  /** The WhatsApp-normalised number when it has an account, else null. */
  checkNumber(number: string): Promise<string | null>;
  contactsBook(): Promise<{ name: string; number: string }[]>;
  /** Forget the link and show a new QR (drivers that pair by QR). */
  requestNewQr?(): Promise<void>;
  /** Unlink the phone, then stop; drivers without a link just disconnect. */
  logout?(): Promise<void>;
  /**
   * Resolves once every event received so far is handed to Charla and every pending write of its own
   * (credentials) is done. Shutdown waits for it: WhatsApp Web confirms receipt before the driver
   * hears of a message, so one dropped here would never be sent again.
   */
  whenIdle?(): Promise<void>;
  /**
   * Link by a code typed on the phone (WhatsApp → Linked devices → Link with phone number) instead of
   * scanning the QR: the session shows PAIRING with the code where the QR goes.
   */
  pairWithCode?(number: string): Promise<void>;
  /** The contact's phone shows "typing…" (on) until told otherwise or a message arrives; drivers without it ignore it. */
  typing?(number: string, on: boolean, opts?: SendOptions): Promise<void>;
  /**
   * The groups the linked phone takes part in (the external API's list-groups); throws
   * ERR_WAPP_NOT_INITIALIZED when the session is not connected. Drivers without groups leave it out.
   */
  groups?(): Promise<ChannelGroup[]>;
  /**
   * Webhook channels (the Cloud API): a payload the webhook received and verified, read from its durable
   * row; the driver maps it to this interface's events (messages, acks). Called again after a crash.
   */
  receiveWebhook?(payload: unknown): Promise<void>;
  /** Channels with approved templates (the Cloud API): the only message allowed outside the 24-hour window. */
  sendTemplate?(number: string, template: TemplateMessage, opts?: SendOptions): Promise<Sent>;
  /** The business account's templates, as the channel lists them. */
  templates?(): Promise<ChannelTemplate[]>;
  /** A call that proves the credentials and the number answer (saved connection's status); throws with a code. */
  probe?(): Promise<{ number: string; name: string }>;
}

/** An approved message template to send (the Cloud API): its name, language and body parameters, filled. */
export type TemplateMessage = { name: string; language: string; params: string[] };
/** A template as the channel lists it (Graph API `message_templates`). */
export type ChannelTemplate = { name: string; language: string; status: string; category: string; components: unknown[] };

/** A group chat of the connection: its id (`…@g.us`), subject and number of participants. */
export type ChannelGroup = { id: string; name: string; participants: number };

/** A driver's methods, its provider name aside. */
export type DriverMethod = Exclude<keyof ChannelDriver, "provider">;

/** What a session's holder runs itself, around its driver, when another process asks (Sessions). */
export type HolderOp = "newQr" | "logout" | "pairWithCode";

/**
 * How a call is handed on by a driver that is not the session's own (forwarding.ts).
 * `remote`, from a process that does not hold the session (remote.ts): "driver", the holder runs it
 * on its driver; `{ holder }`, the holder runs that operation of its own, which stops or starts the
 * session around the driver as for a request of its own; "none", nothing for the holder to do (the
 * session runs there already; nothing was received here to wait for).
 */
export type MethodSpec = {
  remote: "driver" | { holder: HolderOp } | "none";
  /** An optional method: what a driver without it does instead. */
  otherwise?: DriverMethod;
  /** Asked of a driver not built yet (lazy.ts): answered at once, without building it. */
  unbuilt?: "skip";
};

/**
 * Every method of ChannelDriver, once. The lazy loader, the proxy of a session another process holds
 * and the holder's list of what it runs for others are made from this table; a method of the
 * interface missing here (or one here the interface lacks) is a type error.
 */
export const DRIVER_METHODS = {
  connect: { remote: "none" },
  disconnect: { remote: "none" },
  sendText: { remote: "driver" },
  sendMedia: { remote: "driver" },
  sendShared: { remote: "driver" },
  deleteForEveryone: { remote: "driver" },
  markRead: { remote: "driver" },
  profilePicture: { remote: "driver" },
  checkNumber: { remote: "driver" },
  contactsBook: { remote: "driver" },
  typing: { remote: "driver" },
  groups: { remote: "driver" },
  requestNewQr: { remote: { holder: "newQr" }, otherwise: "connect" },
  logout: { remote: { holder: "logout" }, otherwise: "disconnect" },
  pairWithCode: { remote: { holder: "pairWithCode" } },
  // webhook channels run on every node: nothing held elsewhere to hand these to
  receiveWebhook: { remote: "driver" },
  sendTemplate: { remote: "driver" },
  templates: { remote: "driver" },
  probe: { remote: "driver" },
  // nothing loaded yet: nothing received, nothing to wait for
  whenIdle: { remote: "none", unbuilt: "skip" },
} as const satisfies { readonly [M in DriverMethod]-?: MethodSpec };

export type DriverContext = { companyId: number; whatsappId: number; events: ChannelEvents };
export type DriverFactory = (ctx: DriverContext) => ChannelDriver;

const factories = new Map<string, DriverFactory>();

/** Drivers register under their `provider` name (core §3 Connection.provider). */
export function registerDriver(provider: string, factory: DriverFactory): void {
  factories.set(provider, factory);
}

export function driverFactory(provider: string): DriverFactory | undefined {
  return factories.get(provider);
}

/** Providers this process can run. */
export function registeredProviders(): string[] {
  return [...factories.keys()];
}
