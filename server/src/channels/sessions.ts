import type { ConnectionStatus } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { Config } from "../config.js";
import { whatsapps } from "../db/schema/index.js";
import type { SecretBox } from "../lib/secret-box.js";
import { cloudFactory } from "./cloud/factory.js";
import type { ChannelInbox } from "./inbox.js";
import {
  type ChannelDriver,
  type ChannelEvents,
  type DriverFactory,
  driverFactory,
  registerDriver,
  registeredProviders,
} from "./driver.js";
import { lazyBaileysFactory } from "./baileys/lazy.js";
import type { BaileysHost } from "./baileys-deps.js";
import { type LeaseTiming, LeaseManager } from "./leases.js";
import { methodOf } from "./forwarding.js";
import { type HolderCall, type RemoteCall, RUN_ON_DRIVER, remoteDriver, SessionBus } from "./remote.js";
import { SimulatorDriver } from "./simulator/driver.js";

const EARLY_ACK_TTL_MS = 60_000;
/** `leased`: the session runs here because this process holds its lease (leases.ts); webhook channels hold none. */
type Running = { companyId: number; driver: ChannelDriver; leased: boolean };
type HolderRun = (companyId: number, whatsappId: number, args: unknown[]) => Promise<unknown>;

registerDriver("simulator", (ctx) => new SimulatorDriver(ctx));
// "beta" is bound to each app's database below; registered here so it counts among the providers
registerDriver("beta", () => {
  throw new Error("the beta driver is built per app by Sessions");
});
registerDriver("cloud", () => {
  throw new Error("the cloud driver is built per app by Sessions");
});

/**
 * Providers with nothing to hold open (the Cloud API: HTTPS calls out, a webhook in): every process
 * builds its own driver on first use, so they take no lease and stay out of the lease rounds.
 */
export const UNLEASED_PROVIDERS: ReadonlySet<string> = new Set(["cloud"]);

/**
 * The live driver of each connection on this process. A session runs only where its lease is held
 * (leases.ts): one process per connection, however many run. Webhook channels (UNLEASED_PROVIDERS)
 * run on every process that uses them.
 */
/** How long shutdown waits for the drivers' events and writes in flight. */
export const SHUTDOWN_DRAIN_MS = 10_000;

async function settledWithin(ms: number, work: (Promise<void> | undefined)[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(work), limit]);
  clearTimeout(timer);
}

/** What the session registry uses of the app (not the whole Services, which name this class). */
export type SessionsHost = BaileysHost & {
  config: Pick<Config, "fakeWhatsapp" | "simulatorOutbox" | "graphApiUrl" | "maxUploadBytes">;
  secrets: Pick<SecretBox, "open">;
};

export class Sessions {
  private readonly drivers = new Map<number, Running>();
  /** Sessions being stopped here: not started again until they are. */
  private readonly stopping = new Set<number>();
  private watchdog: NodeJS.Timeout | null = null;
  private readonly starting = new Map<string, Promise<ChannelDriver | null>>();

  private closing = false;
  /** Acks that arrived before the sent message's row was written (channel id → ack, time). */
  private readonly earlyAcks = new Map<string, { ack: number; at: number }>();

  /** Sessions being handed to another process: their drivers' last words must not change the row. */
  private readonly handingOver = new Set<number>();
  readonly leases: LeaseManager;

  constructor(
    private readonly s: SessionsHost,
    /** Where the drivers' events go (pipeline/channel-inbox.ts): this layer knows only the port. */
    private readonly inbox: ChannelInbox,
    /** Tests narrow the providers this process runs, so other tests' connections stay out of its rounds. */
    opts: { timing?: LeaseTiming; providers?: () => string[] } = {},
  ) {
    const providers = opts.providers ?? registeredProviders;
    this.leases = new LeaseManager(s.db, () => providers().filter((p) => !UNLEASED_PROVIDERS.has(p)), opts.timing);
    this.factories.set("beta", lazyBaileysFactory(s));
    this.factories.set("cloud", cloudFactory(s));
    this.factories.set("simulator", (ctx) => new SimulatorDriver(ctx, { outbox: s.config.simulatorOutbox }));
  }

  /** Drivers bound to this app (its database and log), else the global registry. */
  private readonly factories = new Map<string, DriverFactory>();
  private factoryOf(provider: string): DriverFactory | undefined {
    return this.factories.get(provider) ?? driverFactory(provider);
  }

  private rememberEarlyAck(whatsappId: number, channelId: string, ack: number) {
    const now = Date.now();
    for (const [key, value] of this.earlyAcks) if (now - value.at > EARLY_ACK_TTL_MS) this.earlyAcks.delete(key);
    const key = `${whatsappId}:${channelId}`;
    this.earlyAcks.set(key, { ack: Math.max(ack, this.earlyAcks.get(key)?.ack ?? 0), at: now });
  }

  /** The highest ack seen for a message before its row existed, consumed once. */
  takeEarlyAck(whatsappId: number | null, channelId: string): number | null {
    const key = `${whatsappId}:${channelId}`;
    const early = this.earlyAcks.get(key);
    this.earlyAcks.delete(key);
    return early?.ack ?? null;
  }

  /** The connection's driver if it runs on this process; never starts one. */
  runningDriver(companyId: number, whatsappId: number): ChannelDriver | null {
    const running = this.drivers.get(whatsappId);
    return running && running.companyId === companyId ? running.driver : null;
  }

  /** The connection's driver, started on first use. */
  async driverFor(companyId: number, whatsappId: number): Promise<ChannelDriver | null> {
    // a session being stopped here (logout, delete, hand-over) is not started again meanwhile
    if (this.closing || this.stopping.has(whatsappId)) return null;
    const existing = this.drivers.get(whatsappId);
    // a connection id of another company finds nothing, even when its driver is running here
    if (existing) return existing.companyId === companyId ? existing.driver : null;
    // two requests at once start one driver, not two
    const key = `${companyId}:${whatsappId}`;
    let pending = this.starting.get(key);
    if (!pending) {
      pending = this.start(companyId, whatsappId).finally(() => this.starting.delete(key));
      this.starting.set(key, pending);
    }
    return pending;
  }

  private async start(companyId: number, whatsappId: number): Promise<ChannelDriver | null> {
    const [row] = await this.s.db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, companyId)));
    const factory = row && this.factoryOf(row.provider);
    if (!factory) return null;
    const leased = !UNLEASED_PROVIDERS.has(row.provider);
    // another live process runs this session: never a second socket for one connection
    if (leased && !(await this.leases.claim(whatsappId))) return this.remote(companyId, whatsappId, row.provider);
    const driver = factory({ companyId, whatsappId, events: this.eventsFor(companyId, whatsappId) });
    try {
      await driver.connect();
    } catch (err) {
      // not kept: the next use tries again, and callers answer ERR_WAPP_NOT_INITIALIZED meanwhile
      this.s.log.warn({ err, whatsappId }, "channel driver did not start");
      if (leased) await this.leases.release(whatsappId).catch(() => undefined);
      return null;
    }
    this.drivers.set(whatsappId, { companyId, driver, leased });
    return driver;
  }

  /** Ends the connection's session on this process (deleted connection, restart). */
  async stop(whatsappId: number): Promise<void> {
    await this.stopping_(whatsappId, async (running) => {
      if (running) await running.driver.disconnect().catch(() => undefined);
    });
  }

  /** Runs `end` on a session's driver with the session marked as stopping, then lets its lease go. */
  private async stopping_(whatsappId: number, end: (running: Running | undefined) => Promise<void>) {
    this.stopping.add(whatsappId);
    try {
      const running = this.drivers.get(whatsappId);
      this.drivers.delete(whatsappId);
      await end(running);
      await this.leases.release(whatsappId).catch(() => undefined);
    } finally {
      this.stopping.delete(whatsappId);
    }
  }

  /** A session this process no longer holds: stopped quietly (its status is the new holder's to tell), then let go. */
  private async handOver(whatsappId: number): Promise<void> {
    await this.stopping_(whatsappId, async (running) => {
      if (!running) return;
      this.handingOver.add(whatsappId);
      await running.driver.disconnect().catch(() => undefined);
      this.handingOver.delete(whatsappId);
    });
  }

  /**
   * Runs the lease rounds: sessions this process gains start, sessions it lost or gives back stop
   * (before their lease is let go, so two processes never run one). If rounds stop succeeding (the
   * database unreachable, a long pause), every session here stops once its leases may have expired.
   */
  startLeases(): void {
    this.leases.start(
      async ({ held, surplus }) => {
        const holding = new Set(held.map((h) => h.whatsappId).filter((id) => !surplus.includes(id)));
        for (const id of this.leasedHere()) if (!holding.has(id)) await this.handOver(id);
        for (const id of surplus) if (!this.drivers.has(id)) await this.leases.release(id).catch(() => undefined);
        for (const h of held)
          if (holding.has(h.whatsappId) && !this.drivers.has(h.whatsappId))
            void this.driverFor(h.companyId, h.whatsappId).catch((err) =>
              this.s.log.warn({ err, whatsappId: h.whatsappId }, "session did not start"),
            );
      },
      (err) => this.s.log.error({ err }, "session lease round failed"),
    );
    this.watchdog = setInterval(() => {
      const leased = this.leasedHere();
      if (Date.now() <= this.leases.validUntil || leased.length === 0) return;
      this.s.log.error("session leases could not be renewed; stopping this process's sessions");
      for (const id of leased) void this.handOver(id);
    }, 1_000).unref();
  }

  /** The sessions running here by their lease (webhook channels' drivers aside: no round moves them). */
  private leasedHere(): number[] {
    return [...this.drivers].filter(([, running]) => running.leased).map(([id]) => id);
  }

  private bus: SessionBus | null = null;

  /** With Redis, processes reach each other's sessions: a send lands on whichever holds the lease. */
  async connectBus(redisUrl: string): Promise<void> {
    this.bus = await SessionBus.connect(redisUrl, this.leases.nodeId, (call) => this.execute(call), this.s.log);
  }

  /** A session held by another live process, reached through the bus; null without one. */
  private async remote(companyId: number, whatsappId: number, provider: string): Promise<ChannelDriver | null> {
    const owner = await this.leases.ownerOf(whatsappId);
    if (!owner || owner === this.leases.nodeId || !this.bus) return null;
    return remoteDriver(provider, this.bus, owner, companyId, whatsappId);
  }

  /** The owner of a session held elsewhere, when a bus can reach it. */
  private async elsewhere(whatsappId: number): Promise<string | null> {
    if (!this.bus || this.drivers.has(whatsappId)) return null;
    const owner = await this.leases.ownerOf(whatsappId);
    return owner && owner !== this.leases.nodeId ? owner : null;
  }

  /** What another process asks this one's Sessions to do with a session held here. */
  private readonly holderCalls: Record<HolderCall, HolderRun> = {
    restart: async (companyId, whatsappId) => void (await this.restart(companyId, whatsappId)),
    newQr: (companyId, whatsappId) => this.newQr(companyId, whatsappId),
    logout: (companyId, whatsappId) => this.logout(companyId, whatsappId),
    pairWithCode: (companyId, whatsappId, args) => this.pairWithCode(companyId, whatsappId, String(args[0] ?? "")),
  };

  /** Another process's call on a session this one holds. */
  private async execute(call: RemoteCall): Promise<unknown> {
    const { companyId, whatsappId, method, args } = call;
    if (Object.hasOwn(this.holderCalls, method)) return this.holderCalls[method as HolderCall](companyId, whatsappId, args);
    const running = this.drivers.get(whatsappId);
    if (!running || running.companyId !== companyId || !RUN_ON_DRIVER.has(method))
      throw Object.assign(new Error("session not held here"), { code: "ERR_WAPP_NOT_INITIALIZED" });
    const run = methodOf(running.driver, method);
    if (!run) throw Object.assign(new Error("not supported"), { code: "ERR_WAPP_NOT_INITIALIZED" });
    return run(...args);
  }

  /** "Retry" (core §4): the session starts again from its stored auth state, wherever it is held. */
  async restart(companyId: number, whatsappId: number): Promise<ChannelDriver | null> {
    const owner = await this.elsewhere(whatsappId);
    if (owner && this.bus) {
      await this.bus.call(owner, companyId, whatsappId, "restart", []);
      return null;
    }
    if (this.drivers.get(whatsappId)?.companyId === companyId) await this.stop(whatsappId);
    // wanted from now on: the lease loop must not take a just-retried session for a disconnected one
    await this.markStatus(companyId, whatsappId, "OPENING");
    return this.driverFor(companyId, whatsappId);
  }

  /** Writes a connection's status ahead of its driver and tells the company. */
  private async markStatus(companyId: number, whatsappId: number, status: ConnectionStatus) {
    await this.eventsFor(companyId, whatsappId).status(status);
  }

  /** The session's events, handed to the inbox with what only this registry knows. */
  private eventsFor(companyId: number, whatsappId: number): ChannelEvents {
    return this.inbox({
      companyId,
      whatsappId,
      rememberEarlyAck: (channelId, ack) => this.rememberEarlyAck(whatsappId, channelId, ack),
      speaks: () => !this.closing && !this.handingOver.has(whatsappId),
    });
  }

  /** "New QR": forget the link and pair again. */
  async newQr(companyId: number, whatsappId: number): Promise<void> {
    const owner = await this.elsewhere(whatsappId);
    if (owner && this.bus) return this.bus.call(owner, companyId, whatsappId, "newQr", []);
    const running = this.drivers.get(whatsappId);
    if (running?.companyId === companyId && running.driver.requestNewQr) await running.driver.requestNewQr();
    else await this.restart(companyId, whatsappId);
  }

  /** "Link with a phone number": the session (started if it is not running) shows a code to type on the phone. */
  async pairWithCode(companyId: number, whatsappId: number, number: string): Promise<void> {
    const owner = await this.elsewhere(whatsappId);
    if (owner && this.bus) return void (await this.bus.call(owner, companyId, whatsappId, "pairWithCode", [number]));
    if (this.drivers.get(whatsappId)?.companyId !== companyId) await this.restart(companyId, whatsappId);
    const running = this.drivers.get(whatsappId);
    if (!running?.driver.pairWithCode)
      throw Object.assign(new Error("this channel does not link by code"), { code: "ERR_WAPP_NOT_INITIALIZED" });
    await running.driver.pairWithCode(number);
  }

  /** "Disconnect": log the phone out where the channel can, and stop. */
  async logout(companyId: number, whatsappId: number): Promise<void> {
    const owner = await this.elsewhere(whatsappId);
    if (owner && this.bus) return this.bus.call(owner, companyId, whatsappId, "logout", []);
    // not wanted from now on, so no lease round starts it again meanwhile
    await this.markStatus(companyId, whatsappId, "DISCONNECTED");
    const running = this.drivers.get(whatsappId);
    if (!running || running.companyId !== companyId) return;
    await this.stopping_(whatsappId, async () => {
      await (running.driver.logout ? running.driver.logout() : running.driver.disconnect()).catch(() => undefined);
    });
  }

  /** At start: one lease round now (sessions this process takes start), then a round every few seconds. */
  async resumeAll(): Promise<number> {
    const { held, surplus } = await this.leases.tick();
    for (const id of surplus) await this.leases.release(id).catch(() => undefined);
    for (const h of held.filter((x) => !surplus.includes(x.whatsappId)))
      void this.driverFor(h.companyId, h.whatsappId).catch((err) =>
        this.s.log.warn({ err, whatsappId: h.whatsappId }, "session did not resume"),
      );
    this.startLeases();
    return held.length;
  }

  /** Shutdown: sessions stop, but their connections keep the status they should resume with. */
  async stopAll(): Promise<void> {
    this.closing = true;
    if (this.watchdog) clearInterval(this.watchdog);
    // no round may start a session after this: wait for one in progress, and for starts under way
    await this.leases.stop();
    await Promise.allSettled([...this.starting.values()]);
    const all = [...this.drivers.values()].map((d) => d.driver);
    this.drivers.clear();
    // messages already acknowledged to WhatsApp are stored before the database closes, and the
    // credentials written after the sockets close: both within a limit, so a stuck one cannot hold the exit
    await settledWithin(
      SHUTDOWN_DRAIN_MS,
      all.map((d) => d.whenIdle?.()),
    );
    await Promise.allSettled(all.map((d) => d.disconnect()));
    await settledWithin(
      SHUTDOWN_DRAIN_MS,
      all.map((d) => d.whenIdle?.()),
    );
    await this.leases.releaseAll().catch(() => undefined);
    await this.bus?.close();
  }
}
