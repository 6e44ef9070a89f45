import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { Ack } from "@charla/contracts";
import type {
  ChannelDriver,
  ChannelGroup,
  DriverContext,
  InboundMessage,
  MediaPayload,
  MethodSpec,
  Sent,
  SendOptions,
} from "../driver.js";

/**
 * One line of the outbox file: a message the simulator was given to send. `repeat`: its id had been
 * sent already (a send cut off by a crash, tried again), which the phone shows once, as WhatsApp does.
 */
export type OutboxLine = {
  whatsappId: number;
  to: string;
  id: string;
  kind: "text" | "media" | "shared";
  body: string;
  repeat?: true;
};

/** A few people in the simulated phone's address book (import from the contacts book). */
export const SIMULATOR_BOOK = [
  { name: "Lucía Fernández", number: "5215511110001" },
  { name: "Carlos Ramírez", number: "5215511110002" },
  { name: "Sofía Martínez", number: "5215511110003" },
];

/**
 * The simulator's methods beyond ChannelDriver, its customer's side: run where the simulator's
 * session is held (remote.ts). A public method of the class missing here is a type error.
 */
export const SIMULATOR_METHODS = {
  receive: { remote: "driver" },
  readReceipt: { remote: "driver" },
} as const satisfies { readonly [M in Exclude<keyof SimulatorDriver, keyof ChannelDriver>]-?: MethodSpec };

/** The customer's side of a simulator, wherever its session runs. */
export type SimulatorCustomer = Pick<SimulatorDriver, keyof typeof SIMULATOR_METHODS>;

/**
 * Receipts arrive like a phone's (docs/acks.md): WhatsApp's server takes the message at once and
 * the phone confirms delivery soon after. Read receipts are honest: only when the customer's side
 * reads the conversation (the simulator page shows it, or a script calls POST …/read).
 */
const ACK_SERVER_MS = 50;
const ACK_DELIVERED_MS = 300;

/**
 * The built-in phone for demos and tests (provider "simulator"): connected at once, every number is
 * on WhatsApp but those ending in 0000 (so a demo shows an invalid one), nothing leaves the machine.
 * Customers "write" through `receive`.
 */
export class SimulatorDriver implements ChannelDriver {
  readonly provider = "simulator";
  private connected = false;
  /** The ids this connection's outbox holds, read from the file once (it outlives the process). */
  private outboxIds: Set<string> | null = null;
  /** The group chats its customers wrote in (the simulated phone's groups), by id. */
  private readonly knownGroups = new Map<string, string>();

  constructor(
    private readonly ctx: DriverContext,
    private readonly opts: { outbox?: string } = {},
  ) {}

  async connect(): Promise<void> {
    this.connected = true;
    await this.ctx.events.status("CONNECTED", { number: "5215500000000" });
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    await this.ctx.events.status("DISCONNECTED");
  }

  /** A simulated customer's message entering the same path a real phone's does. */
  async receive(msg: Omit<InboundMessage, "channelId" | "fromMe"> & { channelId?: string }): Promise<string> {
    const channelId = msg.channelId ?? `sim-in-${randomUUID()}`;
    if (msg.isGroup) this.knownGroups.set(msg.number, msg.name?.trim() || this.knownGroups.get(msg.number) || msg.number);
    await this.ctx.events.message({ ...msg, channelId, fromMe: false });
    return channelId;
  }

  async sendText(number: string, body: string, opts?: SendOptions): Promise<Sent> {
    return this.sent(number, "text", body, opts);
  }

  async sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> {
    return this.sent(number, "media", media.caption ?? media.fileName, opts);
  }

  async sendShared(number: string, _share: unknown, opts?: SendOptions): Promise<Sent> {
    return this.sent(number, "shared", "", opts);
  }

  /** The customer read these messages of Charla's: their read receipts (blue ticks). */
  async readReceipt(channelIds: string[]): Promise<void> {
    this.assertConnected();
    for (const channelId of channelIds) await this.ctx.events.ack(channelId, Ack.read);
  }

  async deleteForEveryone(): Promise<void> {
    this.assertConnected();
  }

  async markRead(): Promise<void> {
    this.assertConnected();
  }

  async profilePicture(): Promise<string | null> {
    return null;
  }

  async checkNumber(number: string): Promise<string | null> {
    const digits = number.replace(/\D/g, "");
    return digits.length >= 8 && digits.length <= 15 && !digits.endsWith("0000") ? digits : null;
  }

  /** The group chats seen so far, as a phone lists the groups it takes part in. */
  async groups(): Promise<ChannelGroup[]> {
    this.assertConnected();
    return [...this.knownGroups].map(([number, name]) => ({ id: `${number}@g.us`, name, participants: 0 }));
  }

  async contactsBook() {
    return SIMULATOR_BOOK;
  }

  /**
   * Like WhatsApp Web, a message goes under the id it was given (a repeated send keeps its id, and the
   * phone shows a message id once); written to the outbox file before it counts as sent.
   */
  private sent(to: string, kind: OutboxLine["kind"], body: string, opts?: SendOptions): Sent {
    this.assertConnected();
    const channelId = opts?.messageId ?? `sim-out-${randomUUID()}`;
    if (this.opts.outbox) {
      const ids = this.sentIds(this.opts.outbox);
      const line: OutboxLine = { whatsappId: this.ctx.whatsappId, to, id: channelId, kind, body };
      if (ids.has(channelId)) line.repeat = true;
      appendFileSync(this.opts.outbox, `${JSON.stringify(line)}\n`);
      ids.add(channelId);
    }
    const later = (ms: number, ack: number) =>
      setTimeout(() => void this.ctx.events.ack(channelId, ack).catch(() => undefined), ms).unref();
    later(ACK_SERVER_MS, Ack.server);
    later(ACK_DELIVERED_MS, Ack.delivered);
    return { channelId, timestamp: new Date() };
  }

  private sentIds(file: string): Set<string> {
    if (this.outboxIds) return this.outboxIds;
    const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
    this.outboxIds = new Set(
      lines.filter((l) => l.includes(`"whatsappId":${this.ctx.whatsappId},`)).map((l) => (JSON.parse(l) as OutboxLine).id),
    );
    return this.outboxIds;
  }

  private assertConnected() {
    if (!this.connected) throw Object.assign(new Error("simulator disconnected"), { code: "ERR_WAPP_NOT_INITIALIZED" });
  }
}
