import type { ConnectionStatus, StatusExtra } from "../driver.js";
import type { DriverBase } from "./socket.js";

/** A session's statuses, told to Charla one after the other; a repeated OPENING is said once. */
export class StatusLine {
  private last: ConnectionStatus | null = null;
  /** The statuses being told: whenIdle waits for them. */
  chain: Promise<void> = Promise.resolve();

  constructor(private readonly base: DriverBase) {}

  say(status: ConnectionStatus, extra?: StatusExtra): Promise<void> {
    return this.after(async () => undefined, status, extra);
  }

  /** Says a status after `before`, in order with the other statuses. */
  after(before: () => Promise<void>, status: ConnectionStatus, extra?: StatusExtra): Promise<void> {
    const run = async () => {
      await before();
      if (status === "OPENING" && this.last === "OPENING") return;
      this.last = status;
      await this.base.ctx.events.status(status, extra);
    };
    this.chain = this.chain
      .then(run)
      .catch((err) => this.base.log.error({ err, status, ...this.base.ref }, "whatsapp status not saved"));
    return this.chain;
  }
}
