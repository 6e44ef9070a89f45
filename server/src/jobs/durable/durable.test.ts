import { and, eq, inArray } from "drizzle-orm";
import type { Services } from "../../context.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp, getTestApp } from "../../test/app.js";
import { as, buildCompany, buildUser, login } from "../../test/factories.js";
import { runSweeps, SWEEPS } from "../runner.js";
import type { Sweep } from "../sweep.js";
import { enqueue } from "./enqueue.js";
import { type AnyJobKind, backoffSec, defineJobKind } from "./kind.js";
import { jobPrune, jobSweep } from "./run.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

const db = () => t.app.charla.db;
const SEC = 1000;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
/**
 * The moment a test's sweep runs, just after its jobs were enqueued: a row's run_after has microseconds
 * and a Date only milliseconds, so a job enqueued within the same millisecond would not be due yet.
 */
const justNow = () => at(new Date(), 1);
const jobOf = async (id: number) => (await db().select().from(jobs).where(eq(jobs.id, id)))[0];

let kinds = 0;
/**
 * A kind of this test's own (the sweep claims only kinds it knows, so tests do not take each other's
 * jobs): each run is recorded; `behave` decides what the run does.
 */
function testKind(
  behave: (attempt: number, n: number) => Promise<void> = async () => undefined,
  extra: Partial<AnyJobKind> = {},
) {
  const runs: { id: number; n: number; attempt: number }[] = [];
  /** Which node's services ran each run (apart from `runs`, which compare with toEqual). */
  const by: Services[] = [];
  const kind = defineJobKind({
    kind: `test.kind-${++kinds}`,
    payload: z.object({ n: z.number() }),
    maxAttempts: 3,
    leaseSec: 30,
    backoff: { baseSec: 10, capSec: 25 },
    ...extra,
    run: async (s, job) => {
      runs.push({ id: job.id, n: job.payload.n, attempt: job.attempt });
      by.push(s);
      await behave(job.attempt, job.payload.n);
    },
  });
  return { kind, runs, by, sweep: jobSweep([kind]) };
}

/** Enqueues in a transaction of its own, as a cause's transaction would. */
async function enqueued(companyId: number, kind: AnyJobKind, n: number, opts: Parameters<typeof enqueue>[4] = {}) {
  return db().transaction((tx) => enqueue(tx, companyId, kind, { n }, opts));
}

const sweepOnce = (sweep: Sweep, now: Date, limit = 50) => sweep.batch(t.app.charla, now, limit);

describe("#durable-jobs enqueue", () => {
  it("commits a job with its cause, leaves none when the cause rolls back, and once per idempotency key", async () => {
    const c = await buildCompany(t.app);
    const { kind } = testKind();
    await expect(
      db().transaction(async (tx) => {
        await enqueue(tx, c.id, kind, { n: 1 });
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await db().select().from(jobs).where(eq(jobs.kind, kind.kind))).toEqual([]);

    const first = await enqueued(c.id, kind, 2, { idempotencyKey: "order-7" });
    const again = await enqueued(c.id, kind, 3, { idempotencyKey: "order-7" });
    expect(first).toBeGreaterThan(0);
    expect(again).toBeNull();
    // the key is per company: another company's cause is another job
    const other = await buildCompany(t.app);
    expect(await enqueued(other.id, kind, 4, { idempotencyKey: "order-7" })).toBeGreaterThan(0);
    expect(await jobOf(first as number)).toMatchObject({ state: "pending", attempts: 0, maxAttempts: 3, payload: { n: 2 } });
  });

  it("refuses a payload its kind does not accept before anything is written", async () => {
    const c = await buildCompany(t.app);
    const { kind } = testKind();
    await expect(enqueued(c.id, kind, "x" as unknown as number)).rejects.toThrow();
    expect(await db().select().from(jobs).where(eq(jobs.kind, kind.kind))).toEqual([]);
  });
});

describe("#durable-jobs runs", () => {
  it("runs a due job once and marks it done; a job due later waits", async () => {
    const c = await buildCompany(t.app);
    const k = testKind();
    const now = justNow();
    const soon = await enqueued(c.id, k.kind, 1);
    const later = await enqueued(c.id, k.kind, 2, { runAfter: at(now, 60 * SEC) });
    expect(await sweepOnce(k.sweep, at(now, SEC))).toBe(1);
    expect(await sweepOnce(k.sweep, at(now, 2 * SEC))).toBe(0);
    expect(k.runs).toEqual([{ id: soon, n: 1, attempt: 1 }]);
    expect(await jobOf(soon as number)).toMatchObject({ state: "done", attempts: 1, lockedUntil: null, lastError: null });
    expect(await jobOf(later as number)).toMatchObject({ state: "pending", attempts: 0 });
    expect(await sweepOnce(k.sweep, at(now, 61 * SEC))).toBe(1);
    expect(k.runs.map((r) => r.n)).toEqual([1, 2]);
  });

  it("retries a failing job after an exponential backoff with a cap, then marks it dead with its last error", async () => {
    const c = await buildCompany(t.app);
    const k = testKind(
      async (attempt) => {
        throw new Error(`upstream said no (${attempt})`);
      },
      { maxAttempts: 4 },
    );
    expect([1, 2, 3, 4].map((n) => backoffSec(k.kind, n))).toEqual([10, 20, 25, 25]);
    const id = (await enqueued(c.id, k.kind, 1)) as number;
    let now = justNow();
    for (const [attempt, wait] of [
      [1, 10],
      [2, 20],
      [3, 25],
    ]) {
      expect(await sweepOnce(k.sweep, now)).toBe(1);
      const row = await jobOf(id);
      expect(row).toMatchObject({ state: "pending", attempts: attempt, lastError: `upstream said no (${attempt})` });
      const waited = (row.runAfter.getTime() - now.getTime()) / SEC;
      expect(waited).toBeGreaterThanOrEqual(wait);
      expect(waited).toBeLessThan(wait + 5);
      // not before its time
      expect(await sweepOnce(k.sweep, at(now, (wait - 1) * SEC))).toBe(0);
      now = row.runAfter;
    }
    expect(await sweepOnce(k.sweep, now)).toBe(1);
    expect(await jobOf(id)).toMatchObject({ state: "dead", attempts: 4, lastError: "upstream said no (4)", lockedUntil: null });
    expect(await sweepOnce(k.sweep, at(now, 3600 * SEC))).toBe(0);
    expect(k.runs).toHaveLength(4);
  });

  it("a payload the handler cannot read is dead at once", async () => {
    const c = await buildCompany(t.app);
    const k = testKind();
    const [row] = await db()
      .insert(jobs)
      .values({ companyId: c.id, kind: k.kind.kind, payload: { n: "seven" } })
      .returning();
    expect(await sweepOnce(k.sweep, at(new Date(), SEC))).toBe(1);
    expect(k.runs).toEqual([]);
    const dead = await jobOf(row.id);
    expect(dead.state).toBe("dead");
    expect(dead.lastError).toMatch(/^ERR_JOB_PAYLOAD/);
  });

  it("runs again a job whose runner died once its lease lapsed, and the dead runner's late outcome is ignored", async () => {
    const c = await buildCompany(t.app);
    let release: () => void = () => undefined;
    const hung = new Promise<void>((r) => {
      release = r;
    });
    // the first run hangs as a runner that died would; the second completes
    const k = testKind(async (attempt) => {
      if (attempt === 1) {
        await hung;
        throw new Error("too late to matter");
      }
    });
    const id = (await enqueued(c.id, k.kind, 1)) as number;
    const now = justNow();
    const dying = sweepOnce(k.sweep, at(now, SEC));
    while (k.runs.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(await jobOf(id)).toMatchObject({ state: "running", attempts: 1 });
    // within the lease no one else takes it
    expect(await sweepOnce(k.sweep, at(now, 20 * SEC))).toBe(0);
    expect(await sweepOnce(k.sweep, at(now, 32 * SEC))).toBe(1);
    expect(await jobOf(id)).toMatchObject({ state: "done", attempts: 2 });
    release();
    expect(await dying).toBe(1);
    expect(await jobOf(id)).toMatchObject({ state: "done", attempts: 2, lastError: null });
    expect(k.runs.map((r) => r.attempt)).toEqual([1, 2]);
  });

  it("a handler that never settles fails once its lease is over, so the round goes on", async () => {
    const c = await buildCompany(t.app);
    const k = testKind(() => new Promise(() => undefined), { leaseSec: 0.05 });
    const id = (await enqueued(c.id, k.kind, 1)) as number;
    expect(await sweepOnce(k.sweep, at(new Date(), SEC))).toBe(1);
    expect(await jobOf(id)).toMatchObject({ state: "pending", attempts: 1, lastError: "ERR_JOB_TIMEOUT", lockedUntil: null });
  });

  it("a lapsed job already at its last attempt is dead, not run again", async () => {
    const c = await buildCompany(t.app);
    const k = testKind();
    const now = justNow();
    const [row] = await db()
      .insert(jobs)
      .values({
        companyId: c.id,
        kind: k.kind.kind,
        payload: { n: 1 },
        state: "running",
        attempts: 3,
        maxAttempts: 3,
        lockedUntil: at(now, -SEC),
      })
      .returning();
    await sweepOnce(k.sweep, now);
    expect(k.runs).toEqual([]);
    expect(await jobOf(row.id)).toMatchObject({ state: "dead", lastError: "ERR_JOB_LEASE_LAPSED", lockedUntil: null });
  });

  it("deletes done jobs after a week, not before, and never pending or dead ones", async () => {
    const c = await buildCompany(t.app);
    const now = justNow();
    const old = at(now, -8 * 86_400 * SEC);
    const rows = await db()
      .insert(jobs)
      .values([
        { companyId: c.id, kind: "test.prune", payload: {}, state: "done", updatedAt: old },
        { companyId: c.id, kind: "test.prune", payload: {}, state: "done", updatedAt: at(now, -86_400 * SEC) },
        { companyId: c.id, kind: "test.prune", payload: {}, state: "dead", updatedAt: old },
        { companyId: c.id, kind: "test.prune", payload: {}, state: "pending", updatedAt: old },
      ])
      .returning();
    await jobPrune.batch(t.app.charla, now, 50);
    const left = await db()
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual(rows.slice(1).map((r) => r.id));
  });

  // PGlite is one connection: two nodes claiming at once need a real PostgreSQL
  it.skipIf(!process.env.TEST_DATABASE_URL)("two nodes running the job sweep at once run each job exactly once", async () => {
    const one = await getTestApp({}, t.database);
    const other = await getTestApp({}, t.database);
    try {
      const c = await buildCompany(t.app);
      const k = testKind(() => new Promise((r) => setTimeout(r, 2)));
      const ids: number[] = [];
      for (let n = 0; n < 120; n++) ids.push((await enqueued(c.id, k.kind, n)) as number);
      const now = () => at(new Date(), SEC);
      await Promise.all([
        runSweeps(one.app.charla, { now, sweeps: [k.sweep], batchSize: 4 }),
        runSweeps(other.app.charla, { now, sweeps: [k.sweep], batchSize: 4 }),
        runSweeps(one.app.charla, { now, sweeps: [k.sweep], batchSize: 7 }),
        runSweeps(other.app.charla, { now, sweeps: [k.sweep], batchSize: 7 }),
      ]);
      const perJob = new Map<number, number>();
      for (const r of k.runs) perJob.set(r.id, (perJob.get(r.id) ?? 0) + 1);
      expect(ids.filter((id) => perJob.get(id) !== 1)).toEqual([]);
      // both nodes took a share, so the claims did meet
      expect(new Set(k.by).size).toBe(2);
      const states = await db()
        .select({ state: jobs.state, attempts: jobs.attempts })
        .from(jobs)
        .where(eq(jobs.kind, k.kind.kind));
      expect(states.filter((s) => s.state !== "done" || s.attempts !== 1)).toEqual([]);
    } finally {
      await one.close();
      await other.close();
    }
  });
});

describe("#durable-jobs runner", () => {
  it("runs interrupted sends, the company socket sweep and the job table as its own sweeps, the first two once a minute", () => {
    const byName = new Map(SWEEPS.map((s) => [s.name, s]));
    expect(byName.get("interrupted-sends")?.everyMs).toBe(60_000);
    expect(byName.get("company-sockets")?.everyMs).toBe(60_000);
    expect(byName.has("jobs")).toBe(true);
    expect(byName.has("jobs-prune")).toBe(true);
  });

  it("runs a sweep with everyMs at most that often on a node, and every call without the runner's memory", async () => {
    let calls = 0;
    const sweep: Sweep = {
      name: "test.every",
      everyMs: 60_000,
      batch: async () => {
        calls++;
        return 0;
      },
    };
    const lastRun = new Map<string, number>();
    await runSweeps(t.app.charla, { sweeps: [sweep], lastRun });
    await runSweeps(t.app.charla, { sweeps: [sweep], lastRun });
    expect(calls).toBe(1);
    await runSweeps(t.app.charla, { sweeps: [sweep] });
    expect(calls).toBe(2);
  });
});

describe("#durable-jobs admin routes", () => {
  it("lists the company's dead jobs to its admins and runs one again on retry; others' ids are not found", async () => {
    const c = await buildCompany(t.app);
    const other = await buildCompany(t.app);
    let failing = true;
    const k = testKind(
      async () => {
        if (failing) throw new Error("webhook answered 500");
      },
      { maxAttempts: 1 },
    );
    const id = (await enqueued(c.id, k.kind, 1)) as number;
    const theirs = (await enqueued(other.id, k.kind, 2)) as number;
    const now = justNow();
    await sweepOnce(k.sweep, now);
    expect((await jobOf(id)).state).toBe("dead");
    expect((await jobOf(theirs)).state).toBe("dead");

    const admin = await login(t.app, c.admin);
    const page = await as(t.app, admin, { method: "GET", url: "/api/v1/jobs?state=dead" });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      jobs: [expect.objectContaining({ id, kind: k.kind.kind, state: "dead", attempts: 1, lastError: "webhook answered 500" })],
      hasMore: false,
      count: 1,
    });
    expect(page.json().jobs[0].payload).toBeUndefined();

    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    expect((await as(t.app, agent, { method: "GET", url: "/api/v1/jobs?state=dead" })).statusCode).toBe(403);
    expect((await as(t.app, agent, { method: "POST", url: `/api/v1/jobs/${id}/retry` })).statusCode).toBe(403);

    expect((await as(t.app, admin, { method: "POST", url: `/api/v1/jobs/${theirs}/retry` })).statusCode).toBe(404);
    expect((await jobOf(theirs)).state).toBe("dead");

    const retried = await as(t.app, admin, { method: "POST", url: `/api/v1/jobs/${id}/retry` });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id, state: "pending", attempts: 0 });
    // a job not dead is not retried
    expect((await as(t.app, admin, { method: "POST", url: `/api/v1/jobs/${id}/retry` })).statusCode).toBe(404);
    failing = false;
    expect(await sweepOnce(k.sweep, at(new Date(), SEC))).toBe(1);
    expect(await jobOf(id)).toMatchObject({ state: "done", attempts: 1, lastError: null });
    const none = await as(t.app, admin, { method: "GET", url: "/api/v1/jobs?state=dead" });
    expect(none.json()).toEqual({ jobs: [], hasMore: false, count: 0 });
    expect(
      await db()
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.companyId, c.id), eq(jobs.state, "done"))),
    ).toEqual([{ id }]);
  });
});
