import { randomUUID } from "node:crypto";
import { and, asc, count, eq, gt, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { toCount } from "../db/client.js";
import { serverNodes, sessionLeases, whatsapps } from "../db/schema/index.js";

export type LeaseTiming = { renewMs: number; ttlMs: number };
/** Renewed every 5 s, valid 15 s: a dead process's sessions move within about 20 s. */
export const DEFAULT_LEASE_TIMING: LeaseTiming = { renewMs: 5_000, ttlMs: 15_000 };

export type Claimed = { whatsappId: number; companyId: number };

/**
 * Which connection sessions this process runs. Every process renews its heartbeat and its leases on
 * each tick, takes expired or free leases up to its fair share (wanted sessions / live processes) and
 * hands back what it holds beyond that share, so sessions spread over the live processes and a
 * process that dies loses its sessions to the others once its leases expire. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so two processes never take the same session.
 */
export class LeaseManager {
  readonly nodeId = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private round: Promise<void> | null = null;
  /** Until when this process's leases are surely still its own (see start). */
  validUntil = Number.POSITIVE_INFINITY;

  constructor(
    private readonly db: Db,
    /** Providers this process can run (registered drivers). */
    private readonly providers: () => string[],
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
  ) {}

  /** Times come from the database's clock: processes on machines whose clocks differ still agree. */
  private expiry() {
    return sql`now() + make_interval(secs => ${this.timing.ttlMs / 1000})`;
  }
  private liveSince() {
    return sql`now() - make_interval(secs => ${this.timing.ttlMs / 1000})`;
  }

  /**
   * One round: heartbeat, renew, release what is no longer wanted or beyond the fair share, claim
   * up to the share. Answers what this process holds now.
   */
  async tick(): Promise<{ held: Claimed[]; surplus: number[] }> {
    return this.db.transaction(async (tx) => {
      const now = sql`now()`;
      await tx
        .insert(serverNodes)
        .values({ id: this.nodeId, seenAt: now })
        .onConflictDoUpdate({ target: serverNodes.id, set: { seenAt: now } });
      // processes gone for long are forgotten
      await tx.delete(serverNodes).where(sql`${serverNodes.seenAt} < now() - interval '1 hour'`);
      await tx.update(sessionLeases).set({ expiresAt: this.expiry() }).where(eq(sessionLeases.owner, this.nodeId));

      const providers = this.providers();
      const wantedWhere = and(
        ne(whatsapps.status, "DISCONNECTED"),
        providers.length ? inArray(whatsapps.provider, providers) : sql`false`,
      );
      // sessions nobody should run any more (disconnected, deleted provider) are let go
      const wanted = tx.select({ id: whatsapps.id }).from(whatsapps).where(wantedWhere);
      await tx
        .delete(sessionLeases)
        .where(and(eq(sessionLeases.owner, this.nodeId), notInArray(sessionLeases.whatsappId, wanted)));

      const [{ n: wantedCount }] = await tx.select({ n: count() }).from(whatsapps).where(wantedWhere);
      const [{ n: liveNodes }] = await tx
        .select({ n: count() })
        .from(serverNodes)
        .where(gt(serverNodes.seenAt, this.liveSince()));
      const share = Math.ceil(toCount(wantedCount) / Math.max(1, toCount(liveNodes)));

      const mine = await tx
        .select({ whatsappId: sessionLeases.whatsappId })
        .from(sessionLeases)
        .where(eq(sessionLeases.owner, this.nodeId))
        .orderBy(asc(sessionLeases.whatsappId));
      // a process joined: the surplus is handed back by the caller once its sessions have stopped here
      const surplus = mine.slice(share).map((m) => m.whatsappId);
      if (mine.length < share) {
        const free = await tx
          .select({ id: whatsapps.id })
          .from(whatsapps)
          .leftJoin(sessionLeases, eq(sessionLeases.whatsappId, whatsapps.id))
          .where(and(wantedWhere, sql`(${sessionLeases.whatsappId} is null or ${sessionLeases.expiresAt} < now())`))
          .orderBy(asc(whatsapps.id))
          .limit(share - mine.length)
          .for("update", { of: whatsapps, skipLocked: true });
        for (const { id } of free) await this.take(tx as unknown as Db, id);
      }
      return { held: await this.heldIn(tx as unknown as Db), surplus };
    });
  }

  /**
   * Takes one session's lease if it is free or expired and the connection is wanted (any status but
   * DISCONNECTED); true when this process holds it after.
   */
  async claim(whatsappId: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [wanted] = await tx
        .select({ id: whatsapps.id })
        .from(whatsapps)
        .where(and(eq(whatsapps.id, whatsappId), ne(whatsapps.status, "DISCONNECTED")));
      if (!wanted) return false;
      await this.take(tx as unknown as Db, whatsappId);
      const [row] = await tx.select().from(sessionLeases).where(eq(sessionLeases.whatsappId, whatsappId));
      return row?.owner === this.nodeId;
    });
  }

  /** The live process holding a session, if any. */
  async ownerOf(whatsappId: number): Promise<string | null> {
    const [row] = await this.db
      .select({ owner: sessionLeases.owner })
      .from(sessionLeases)
      .where(and(eq(sessionLeases.whatsappId, whatsappId), gt(sessionLeases.expiresAt, sql`now()`)));
    return row?.owner ?? null;
  }

  async release(whatsappId: number): Promise<void> {
    await this.db
      .delete(sessionLeases)
      .where(and(eq(sessionLeases.whatsappId, whatsappId), eq(sessionLeases.owner, this.nodeId)));
  }

  /** Shutdown: leases and heartbeat go at once, so the others take over without waiting for expiry. */
  async releaseAll(): Promise<void> {
    await this.stop();
    await this.db.delete(sessionLeases).where(eq(sessionLeases.owner, this.nodeId));
    await this.db.delete(serverNodes).where(eq(serverNodes.id, this.nodeId));
  }

  /**
   * Rounds every `renewMs`. `validUntil` is when this process's leases may have run out if no round
   * succeeds meanwhile (measured from the round's start, with a margin): past it, its sessions stop.
   */
  start(onTick: (round: { held: Claimed[]; surplus: number[] }) => Promise<void>, onError: (err: unknown) => void): void {
    this.running = true;
    const run = async () => {
      const started = Date.now();
      this.round = (async () => {
        try {
          const result = await this.tick();
          this.validUntil = started + this.timing.ttlMs * 0.8;
          await onTick(result);
        } catch (err) {
          onError(err);
        }
      })();
      await this.round;
      this.round = null;
      if (this.running) this.timer = setTimeout(run, this.timing.renewMs).unref();
    };
    this.timer = setTimeout(run, 0).unref();
  }

  /** Stops the rounds and waits for one in progress, so nothing is taken after this returns. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round;
  }

  private async take(tx: Db, whatsappId: number) {
    await tx
      .insert(sessionLeases)
      .values({ whatsappId, owner: this.nodeId, expiresAt: this.expiry() })
      .onConflictDoUpdate({
        target: sessionLeases.whatsappId,
        set: { owner: this.nodeId, expiresAt: this.expiry() },
        // only an expired lease changes hands
        setWhere: sql`${sessionLeases.expiresAt} < now() or ${sessionLeases.owner} = ${this.nodeId}`,
      });
  }

  private async heldIn(tx: Db): Promise<Claimed[]> {
    return tx
      .select({ whatsappId: sessionLeases.whatsappId, companyId: whatsapps.companyId })
      .from(sessionLeases)
      .innerJoin(whatsapps, eq(whatsapps.id, sessionLeases.whatsappId))
      .where(and(eq(sessionLeases.owner, this.nodeId), gt(sessionLeases.expiresAt, sql`now()`)));
  }
}
