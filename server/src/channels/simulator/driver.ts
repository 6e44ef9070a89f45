import { randomUUID } from "node:crypto";
import type { ChannelDriver, DriverContext, InboundMessage, MediaPayload, Sent } from "../driver.js";

/** A few people in the simulated phone's address book (import from the contacts book). */
export const SIMULATOR_BOOK = [
  { name: "Lucía Fernández", number: "5215511110001" },
  { name: "Carlos Ramírez", number: "5215511110002" },
  { name: "Sofía Martínez", number: "5215511110003" },
];

/** Delivery and read receipts arrive like a phone's: delivered soon, read a little later. */
const ACK_DELIVERED_MS = 300;
const ACK_READ_MS = 1200;

/**
 * The built-in phone for demos and tests (provider "simulator"): connected at once, every number is
 * on WhatsApp, nothing leaves the machine. Customers "write" through `receive`.
 */
export class SimulatorDriver implements ChannelDriver {
  readonly provider = "simulator";
  private connected = false;

  constructor(private readonly ctx: DriverContext) {}

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
    await this.ctx.events.message({ ...msg, channelId, fromMe: false });
    return channelId;
  }

  async sendText(_number: string, _body: string): Promise<Sent> {
    return this.sent();
  }

  async sendMedia(_number: string, _media: MediaPayload): Promise<Sent> {
    return this.sent();
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
    return digits.length >= 8 && digits.length <= 15 ? digits : null;
  }

  async contactsBook() {
    return SIMULATOR_BOOK;
  }

  private sent(): Sent {
    this.assertConnected();
    const channelId = `sim-out-${randomUUID()}`;
    const later = (ms: number, ack: number) =>
      setTimeout(() => void this.ctx.events.ack(channelId, ack).catch(() => undefined), ms).unref();
    later(ACK_DELIVERED_MS, 2);
    later(ACK_READ_MS, 3);
    return { channelId, timestamp: new Date() };
  }

  private assertConnected() {
    if (!this.connected) throw Object.assign(new Error("simulator disconnected"), { code: "ERR_WAPP_NOT_INITIALIZED" });
  }
}
