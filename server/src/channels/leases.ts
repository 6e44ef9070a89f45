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

  constructor(
    private readonly db: Db,
    /** Providers this process can run (registered drivers). */
    private readonly providers: () => string[],
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
  ) {}

  private expiry() {
    return new Date(Date.now() + this.timing.ttlMs);
  }

  /**
   * One round: heartbeat, renew, release what is no longer wanted or beyond the fair share, claim
   * up to the share. Answers what this process holds now.
   */
  async tick(): Promise<{ held: Claimed[] }> {
    return this.db.transaction(async (tx) => {
      const now = new Date();
      await tx
        .insert(serverNodes)
        .values({ id: this.nodeId, seenAt: now })
        .onConflictDoUpdate({ target: serverNodes.id, set: { seenAt: now } });
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
        .where(gt(serverNodes.seenAt, new Date(now.getTime() - this.timing.ttlMs)));
      const share = Math.ceil(toCount(wantedCount) / Math.max(1, toCount(liveNodes)));

      const mine = await tx
        .select({ whatsappId: sessionLeases.whatsappId })
        .from(sessionLeases)
        .where(eq(sessionLeases.owner, this.nodeId))
        .orderBy(asc(sessionLeases.whatsappId));
      if (mine.length > share) {
        // a process joined: hand back the surplus, the newcomer takes it on its next round
        const surplus = mine.slice(share).map((m) => m.whatsappId);
        await tx
          .delete(sessionLeases)
          .where(and(eq(sessionLeases.owner, this.nodeId), inArray(sessionLeases.whatsappId, surplus)));
      } else if (mine.length < share) {
        const free = await tx
          .select({ id: whatsapps.id })
          .from(whatsapps)
          .leftJoin(sessionLeases, eq(sessionLeases.whatsappId, whatsapps.id))
          .where(and(wantedWhere, sql`(${sessionLeases.whatsappId} is null or ${sessionLeases.expiresAt} < ${now})`))
          .orderBy(asc(whatsapps.id))
          .limit(share - mine.length)
          .for("update", { of: whatsapps, skipLocked: true });
        for (const { id } of free) await this.take(tx as unknown as Db, id, now);
      }
      return { held: await this.heldIn(tx as unknown as Db) };
    });
  }

  /** Takes one session's lease if it is free or expired; true when this process holds it after. */
  async claim(whatsappId: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await this.take(tx as unknown as Db, whatsappId, new Date());
      const [row] = await tx.select().from(sessionLeases).where(eq(sessionLeases.whatsappId, whatsappId));
      return row?.owner === this.nodeId;
    });
  }

  /** The live process holding a session, if any. */
  async ownerOf(whatsappId: number): Promise<string | null> {
    const [row] = await this.db
      .select({ owner: sessionLeases.owner })
      .from(sessionLeases)
      .where(and(eq(sessionLeases.whatsappId, whatsappId), gt(sessionLeases.expiresAt, new Date())));
    return row?.owner ?? null;
  }

  async release(whatsappId: number): Promise<void> {
    await this.db
      .delete(sessionLeases)
      .where(and(eq(sessionLeases.whatsappId, whatsappId), eq(sessionLeases.owner, this.nodeId)));
  }

  /** Shutdown: leases and heartbeat go at once, so the others take over without waiting for expiry. */
  async releaseAll(): Promise<void> {
    this.stop();
    await this.db.delete(sessionLeases).where(eq(sessionLeases.owner, this.nodeId));
    await this.db.delete(serverNodes).where(eq(serverNodes.id, this.nodeId));
  }

  start(onTick: (held: Claimed[]) => Promise<void>, onError: (err: unknown) => void): void {
    const run = async () => {
      try {
        await onTick((await this.tick()).held);
      } catch (err) {
        onError(err);
      }
      if (this.timer) this.timer = setTimeout(run, this.timing.renewMs).unref();
    };
    this.timer = setTimeout(run, 0).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async take(tx: Db, whatsappId: number, now: Date) {
    await tx
      .insert(sessionLeases)
      .values({ whatsappId, owner: this.nodeId, expiresAt: this.expiry() })
      .onConflictDoUpdate({
        target: sessionLeases.whatsappId,
        set: { owner: this.nodeId, expiresAt: this.expiry() },
        // only an expired lease changes hands
        setWhere: sql`${sessionLeases.expiresAt} < ${now} or ${sessionLeases.owner} = ${this.nodeId}`,
      });
  }

  private async heldIn(tx: Db): Promise<Claimed[]> {
    return tx
      .select({ whatsappId: sessionLeases.whatsappId, companyId: whatsapps.companyId })
      .from(sessionLeases)
      .innerJoin(whatsapps, eq(whatsapps.id, sessionLeases.whatsappId))
      .where(and(eq(sessionLeases.owner, this.nodeId), gt(sessionLeases.expiresAt, new Date())));
  }
}
