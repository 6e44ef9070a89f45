import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { jobs } from "../../db/schema/index.js";
import type { Sweep } from "../sweep.js";
import { type AnyJobKind, backoffSec, JOB_DEFAULTS } from "./kind.js";

type Claimed = typeof jobs.$inferSelect;

const ERROR_MAX = 2000;
const errorText = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err)).slice(0, ERROR_MAX);
const plusSec = (at: Date, sec: number) => new Date(at.getTime() + sec * 1000);

/**
 * Claims at most `limit` due jobs of these kinds: pending ones whose time came and running ones
 * whose lease lapsed (their runner died). The rows are locked with SKIP LOCKED, so two nodes never
 * claim one job; each claim counts an attempt and sets a lease. A lapsed job already at its last
 * attempt is not run again: it is dead.
 */
async function claim(s: Services, kinds: Map<string, AnyJobKind>, now: Date, limit: number): Promise<Claimed[]> {
  return s.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: jobs.id, kind: jobs.kind, attempts: jobs.attempts, maxAttempts: jobs.maxAttempts })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, [...kinds.keys()]),
          or(and(eq(jobs.state, "pending"), lte(jobs.runAfter, now)), and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now))),
        ),
      )
      .orderBy(jobs.runAfter, jobs.id)
      .limit(limit)
      .for("update", { skipLocked: true });
    const spent = due.filter((j) => j.attempts >= j.maxAttempts).map((j) => j.id);
    if (spent.length) {
      await tx
        .update(jobs)
        .set({
          state: "dead",
          lockedUntil: null,
          lastError: sql`coalesce(${jobs.lastError}, 'ERR_JOB_LEASE_LAPSED')`,
          updatedAt: now,
        })
        .where(inArray(jobs.id, spent));
    }
    const claimed: Claimed[] = [];
    for (const j of due) {
      if (j.attempts >= j.maxAttempts) continue;
      const lease = kinds.get(j.kind)?.leaseSec ?? JOB_DEFAULTS.leaseSec;
      const [row] = await tx
        .update(jobs)
        .set({ state: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: plusSec(now, lease), updatedAt: now })
        .where(eq(jobs.id, j.id))
        .returning();
      claimed.push(row);
    }
    return claimed;
  });
}

/**
 * The claimed run's outcome, written only while the claim is still ours: if the lease lapsed and
 * another node claimed the job again (attempts moved on), that node's outcome is the one that counts.
 */
async function settle(s: Services, job: Claimed, values: Partial<typeof jobs.$inferInsert>): Promise<void> {
  await s.db
    .update(jobs)
    .set({ lockedUntil: null, ...values })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, "running"), eq(jobs.attempts, job.attempts)));
}

async function runOne(s: Services, kind: AnyJobKind, job: Claimed, now: () => Date): Promise<void> {
  const parsed = kind.payload.safeParse(job.payload);
  if (!parsed.success) {
    // a payload this code cannot read will not become readable by waiting
    await settle(s, job, { state: "dead", lastError: `ERR_JOB_PAYLOAD: ${errorText(parsed.error)}`, updatedAt: now() });
    return;
  }
  const running = kind.run(s, {
    id: job.id,
    companyId: job.companyId,
    payload: parsed.data,
    attempt: job.attempts,
    idempotencyKey: job.idempotencyKey,
  });
  // a handler that never settles must not hold the runner's round (and every other sweep) forever:
  // past its lease it counts as failed, as another node would take it for dead by then anyway
  running.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const lease = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("ERR_JOB_TIMEOUT")), (kind.leaseSec ?? JOB_DEFAULTS.leaseSec) * 1000);
  });
  try {
    await Promise.race([running, lease]);
    await settle(s, job, { state: "done", lastError: null, updatedAt: now() });
  } catch (err) {
    const at = now();
    const lastError = errorText(err);
    s.log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: lastError }, "job failed");
    if (job.attempts >= job.maxAttempts) await settle(s, job, { state: "dead", lastError, updatedAt: at });
    else
      await settle(s, job, {
        state: "pending",
        lastError,
        runAfter: plusSec(at, backoffSec(kind, job.attempts)),
        updatedAt: at,
      });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The runner's sweep over the job table: claims a batch in one short transaction, then runs the
 * handlers side by side outside it (a slow webhook holds no lock), each under its lease.
 */
export function jobSweep(kindList: readonly AnyJobKind[]): Sweep {
  const kinds = new Map(kindList.map((k) => [k.kind, k]));
  return {
    name: "jobs",
    batch: async (s, now, limit) => {
      if (!kinds.size) return 0;
      const claimed = await claim(s, kinds, now, limit);
      // the runner's clock (tests move it) advanced by the time the handlers took
      const started = Date.now();
      const clock = () => new Date(now.getTime() + (Date.now() - started));
      await Promise.all(
        claimed.map((job) =>
          runOne(s, kinds.get(job.kind) as AnyJobKind, job, clock).catch((err) =>
            // the outcome could not be written (database gone): the lease brings the job back
            s.log.warn({ job: job.id, err: errorText(err) }, "job outcome not recorded"),
          ),
        ),
      );
      return claimed.length;
    },
  };
}

/**
 * Runs one job now on this node if it is still pending (its producer's process, right after the commit
 * that wrote it), instead of waiting for the next round: a greeting must not wait `JOBS_INTERVAL_MS`.
 * Claimed like any round's job (SKIP LOCKED, an attempt, a lease), so a sweep never runs it alongside;
 * true when this call ran it.
 */
export async function runJobNow(s: Services, kindList: readonly AnyJobKind[], id: number): Promise<boolean> {
  const kinds = new Map(kindList.map((k) => [k.kind, k]));
  if (!kinds.size) return false;
  const now = new Date();
  // one statement, no transaction around it: the row is locked (SKIP LOCKED) and claimed by the same
  // update, so the immediate run costs one round trip; each kind's lease is chosen in SQL
  const leaseSec = sql`case ${jobs.kind} ${sql.join(
    kindList.map((k) => sql`when ${k.kind} then ${k.leaseSec ?? JOB_DEFAULTS.leaseSec}::int`),
    sql` `,
  )} end`;
  const due = and(eq(jobs.id, id), eq(jobs.state, "pending"), inArray(jobs.kind, [...kinds.keys()]));
  const [job] = await s.db
    .update(jobs)
    .set({
      state: "running",
      attempts: sql`${jobs.attempts} + 1`,
      lockedUntil: sql`${now.toISOString()}::timestamptz + ${leaseSec} * interval '1 second'`,
      updatedAt: now,
    })
    .where(eq(jobs.id, sql`(select ${jobs.id} from ${jobs} where ${due} for update skip locked)`))
    .returning();
  if (!job) return false;
  await runOne(s, kinds.get(job.kind) as AnyJobKind, job, () => new Date());
  return true;
}

/** Done jobs are kept this long (to look into what ran), then deleted. */
export const DONE_KEPT_DAYS = 7;

/** Deletes done jobs older than DONE_KEPT_DAYS, a batch at a time. */
export const jobPrune: Sweep = {
  name: "jobs-prune",
  everyMs: 10 * 60_000,
  batch: async (s, now, limit) => {
    const before = new Date(now.getTime() - DONE_KEPT_DAYS * 86_400_000);
    return s.db.transaction(async (tx) => {
      const old = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.state, "done"), lte(jobs.updatedAt, before)))
        .orderBy(jobs.updatedAt)
        .limit(limit)
        .for("update", { skipLocked: true });
      if (!old.length) return 0;
      await tx.delete(jobs).where(
        inArray(
          jobs.id,
          old.map((j) => j.id),
        ),
      );
      return old.length;
    });
  },
};
