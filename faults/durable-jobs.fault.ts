import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeFault, faultDatabase, type ScratchDatabase, ServerUnderTest, until, untilOnlyUs } from "./support/harness.js";

// One-off jobs across a SIGKILL: 400 probe jobs (server/src/jobs/durable/probe.ts: wait, then append
// the job's idempotency key to a file, as an external receiver would log it), the server killed while
// a batch of them runs, started again. Every job must end done once; a job in flight at the kill may
// have its effect run again after its lease lapses (at least once, the key lets a receiver dedupe),
// any other job's effect happened exactly once.
const JOBS = 400;
const RUN_MS = 250;

const log = (line: string) => console.log(`faults/durable-jobs: ${line}`);

describeFault("durable jobs across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;
  const dir = mkdtempSync(join(tmpdir(), "charla-fault-jobs-"));
  const probeFile = join(dir, "effects.log");

  beforeAll(async () => {
    database = await faultDatabase("durable_jobs");
    server = new ServerUnderTest(database, { JOBS_INTERVAL_MS: "200", CHARLA_PROBE_JOBS_FILE: probeFile });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs each job to completion once after a restart, the ones in flight at the kill at least once", async () => {
    const db = database.db;
    const started = Date.now();
    const [company] = (await db.query<{ id: number }>("select id from companies order by id limit 1")).rows;
    const created = await db.query<{ id: number; idempotency_key: string }>(
      `insert into jobs (company_id, kind, payload, idempotency_key)
       select $1, 'test.probe', jsonb_build_object('ms', $3::int), 'probe-' || g from generate_series(1, $2::int) g
       returning id, idempotency_key`,
      [company.id, JOBS, RUN_MS],
    );
    expect(created.rows).toHaveLength(JOBS);
    const keyOf = new Map(created.rows.map((r) => [r.id, r.idempotency_key]));

    const states = async () => {
      const { rows } = await db.query<{ state: string; n: number }>(
        "select state, count(*)::int as n from jobs where kind = 'test.probe' group by state",
      );
      return Object.fromEntries(rows.map((r) => [r.state, r.n])) as Record<string, number | undefined>;
    };

    // --- the kill, once two batches are done and another is running, halfway through its handlers'
    // wait (some effects not yet made, or all made and not yet marked done: the log line tells)
    await until(
      "jobs done and jobs running",
      async () => {
        const s = await states();
        return (s.done ?? 0) >= 100 && (s.running ?? 0) > 0;
      },
      30_000,
      10,
    );
    await new Promise((r) => setTimeout(r, RUN_MS / 2));
    await server.kill();
    await untilOnlyUs(database);
    const atKill = await states();
    const inFlight = (
      await db.query<{ id: number }>("select id from jobs where kind = 'test.probe' and state = 'running'")
    ).rows.map((r) => r.id);
    const madeAtKill = readFileSync(probeFile, "utf8").split("\n").filter(Boolean).length;
    log(
      `kill after ${((Date.now() - started) / 1000).toFixed(1)} s: ${atKill.done ?? 0} done, ` +
        `${inFlight.length} running, ${atKill.pending ?? 0} pending; ${madeAtKill} effects made`,
    );
    expect(atKill.done ?? 0).toBeGreaterThan(0);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(atKill.done ?? 0).toBeLessThan(JOBS);

    // --- a new process takes the rest, and the jobs in flight once their lease (2 s) lapsed
    await server.start();
    await until("every job done", async () => (await states()).done === JOBS, 60_000, 100);
    log(`restart: all done ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);

    const rows = (
      await db.query<{ id: number; state: string; attempts: number; last_error: string | null }>(
        "select id, state, attempts, last_error from jobs where kind = 'test.probe'",
      )
    ).rows;
    expect(rows.filter((r) => r.state !== "done" || r.last_error !== null)).toEqual([]);
    // a job not running at the kill was claimed once
    const inFlightSet = new Set(inFlight);
    expect(rows.filter((r) => !inFlightSet.has(r.id) && r.attempts !== 1).map((r) => r.id)).toEqual([]);
    expect(rows.filter((r) => inFlightSet.has(r.id) && r.attempts !== 2).map((r) => r.id)).toEqual([]);

    // the effects: every key at least once, only the jobs in flight at the kill more than once
    const perKey = new Map<string, number>();
    for (const line of readFileSync(probeFile, "utf8").split("\n").filter(Boolean)) {
      const key = line.split(" ")[0];
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
    }
    expect(perKey.size).toBe(JOBS);
    const repeated = [...perKey].filter(([, n]) => n > 1).map(([key]) => key);
    const inFlightKeys = new Set(inFlight.map((id) => keyOf.get(id)));
    expect(repeated.filter((key) => !inFlightKeys.has(key))).toEqual([]);
    expect([...perKey.values()].filter((n) => n > 2)).toEqual([]);
    log(`effects: ${JOBS} keys, ${repeated.length} of the ${inFlight.length} in flight at the kill ran twice`);
  });
});
