import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type ChannelDriver, DRIVER_METHODS, type HolderOp, type MethodSpec } from "./driver.js";
import { forwardingDriver } from "./forwarding.js";
import { SIMULATOR_METHODS, type SimulatorCustomer } from "./simulator/driver.js";

/** A driver running on another process, reached through the bus; a simulator's customer side too. */
export type RemoteDriver = ChannelDriver & SimulatorCustomer;

const REMOTE_METHODS = { ...DRIVER_METHODS, ...SIMULATOR_METHODS } as const;
type DriverCall = {
  [M in keyof typeof REMOTE_METHODS]: (typeof REMOTE_METHODS)[M]["remote"] extends "driver" ? M : never;
}[keyof typeof REMOTE_METHODS];

/** What the holder of a session runs on its driver when another process asks. */
export const RUN_ON_DRIVER: ReadonlySet<string> = new Set(
  Object.entries<MethodSpec>(REMOTE_METHODS)
    .filter(([, spec]) => spec.remote === "driver")
    .map(([method]) => method),
);

/** What the holder runs itself, around its driver (Sessions); "restart" has no driver method of its own. */
export type HolderCall = HolderOp | "restart";

/** Everything one process may ask of another about a session. */
export type BusMethod = DriverCall | HolderCall;

/** What a process that does not hold a session asks of the process that does. */
export type RemoteCall = {
  id: string;
  from: string;
  companyId: number;
  whatsappId: number;
  method: string;
  args: unknown[];
};
type RemoteReply = { id: string; ok: true; result: unknown } | { id: string; ok: false; code?: string; message: string };

/** Runs a call on this process's own driver (Sessions provides it). */
export type LocalExecutor = (call: RemoteCall) => Promise<unknown>;

const REPLY_TIMEOUT_MS = 60_000;

// Buffers (media) and Dates cross the wire tagged, and come back as themselves
function encode(value: unknown): string {
  return JSON.stringify(value, function (key, v) {
    const raw = (this as Record<string, unknown>)[key];
    if (Buffer.isBuffer(raw)) return { $buffer: raw.toString("base64") };
    if (raw instanceof Date) return { $date: raw.toISOString() };
    return v;
  });
}
function decode<T>(text: string): T {
  return JSON.parse(text, (_k, v) => {
    if (v && typeof v === "object" && typeof v.$buffer === "string") return Buffer.from(v.$buffer, "base64");
    if (v && typeof v === "object" && typeof v.$date === "string") return new Date(v.$date);
    return v;
  }) as T;
}

type PubSub = {
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  quit(): Promise<unknown>;
};

/**
 * Calls between processes over Redis: a request goes to the channel of the process holding the
 * session's lease, the answer comes back on the caller's channel. Without Redis there is one process,
 * which holds every session itself.
 */
export class SessionBus {
  private readonly pending = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  private constructor(
    private readonly nodeId: string,
    private readonly pub: PubSub,
    private readonly sub: PubSub,
    private readonly log: FastifyBaseLogger,
  ) {}

  static async connect(redisUrl: string, nodeId: string, execute: LocalExecutor, log: FastifyBaseLogger): Promise<SessionBus> {
    const { createClient } = await import("redis");
    const pub = createClient({ url: redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err) => log.error({ err: err.message }, "session bus pub"));
    sub.on("error", (err) => log.error({ err: err.message }, "session bus sub"));
    await Promise.all([pub.connect(), sub.connect()]);
    const bus = new SessionBus(nodeId, pub as unknown as PubSub, sub as unknown as PubSub, log);
    await sub.subscribe(`charla:sessions:${nodeId}`, (message) => void bus.serve(message, execute));
    await sub.subscribe(`charla:sessions:reply:${nodeId}`, (message) => bus.settle(message));
    return bus;
  }

  /** Asks the process `owner` to run `method` on the connection's session: on its driver, or a holder operation. */
  call<T>(owner: string, companyId: number, whatsappId: number, method: BusMethod, args: unknown[]): Promise<T> {
    const id = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error("session owner did not answer"), { code: "ERR_WAPP_NOT_INITIALIZED" }));
      }, REPLY_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      const request: RemoteCall = { id, from: this.nodeId, companyId, whatsappId, method, args };
      this.pub
        .publish(`charla:sessions:${owner}`, encode(request))
        .then((receivers) => {
          // nobody listens there (the holder just died): no point waiting for an answer
          if (receivers === 0) this.fail(id, "ERR_WAPP_NOT_INITIALIZED", "session holder is not listening");
        })
        .catch((err: Error) => {
          clearTimeout(timer);
          this.pending.delete(id);
          reject(Object.assign(err, { code: "ERR_WAPP_NOT_INITIALIZED" }));
        });
    });
  }

  private async serve(message: string, execute: LocalExecutor) {
    let call: RemoteCall;
    try {
      call = decode<RemoteCall>(message);
    } catch {
      return;
    }
    let reply: RemoteReply;
    try {
      reply = { id: call.id, ok: true, result: (await execute(call)) ?? null };
    } catch (err) {
      const e = err as { code?: string; message?: string };
      reply = { id: call.id, ok: false, code: e.code, message: e.message ?? "failed" };
    }
    await this.pub
      .publish(`charla:sessions:reply:${call.from}`, encode(reply))
      .catch((err: Error) => this.log.warn({ err: err.message }, "session bus reply not sent"));
  }

  private fail(id: string, code: string, message: string) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.reject(Object.assign(new Error(message), { code }));
  }

  private settle(message: string) {
    let reply: RemoteReply;
    try {
      reply = decode<RemoteReply>(message);
    } catch {
      return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(Object.assign(new Error(reply.message), { code: reply.code }));
  }

  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.fail(id, "ERR_WAPP_NOT_INITIALIZED", "shutting down");
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}

/** A session held by process `owner`, reached through the bus (REMOTE_METHODS says how each method goes). */
export function remoteDriver(
  provider: string,
  bus: SessionBus,
  owner: string,
  companyId: number,
  whatsappId: number,
): RemoteDriver {
  return forwardingDriver<RemoteDriver>(provider, REMOTE_METHODS, async (method, spec, args) => {
    if (spec.remote === "none") return undefined;
    const name = spec.remote === "driver" ? (method as DriverCall) : spec.remote.holder;
    return bus.call(owner, companyId, whatsappId, name, args);
  });
}
