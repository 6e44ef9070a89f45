import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tx } from "../db/client.js";
import { jobs } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { enqueue } from "../jobs/durable/enqueue.js";
import { defineJobKind } from "../jobs/durable/kind.js";
import { jobSweep, runJobNow } from "../jobs/durable/run.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany } from "../test/factories.js";
import { EventBus } from "./bus.js";
import type { DomainEvent } from "./catalog.js";

const errors: unknown[] = [];
const log = { error: (obj: unknown) => errors.push(obj) } as unknown as FastifyBaseLogger;
const tx = {} as Tx;
const ticket = (id: number, companyId = 1) =>
  ({ type: "ticket.changed", companyId, ticket: { id } as never, audience: [1], lost: [] }) satisfies DomainEvent;

describe("EventBus", () => {
  it("runs write listeners inside the transaction and the others only once it commits", async () => {
    const bus = new EventBus(log);
    const seen: string[] = [];
    bus.on("ticket.changed", { id: "w", phase: "write" }, async (t, e) => {
      expect(t).toBe(tx);
      seen.push(`write ${e.ticket.id}`);
    });
    bus.on("ticket.changed", { id: "c", phase: "commit" }, (e) => seen.push(`commit ${e.ticket.id}`));
    const event = ticket(7);
    const written = await bus.write(tx, event);
    expect(seen).toEqual(["write 7"]);
    bus.publish(event, written);
    expect(seen).toEqual(["write 7", "commit 7"]);
  });

  it("lets a failing write listener fail the transaction, and then publishes nothing", async () => {
    const bus = new EventBus(log);
    const seen: number[] = [];
    bus.on("ticket.changed", { id: "w", phase: "write" }, async () => {
      throw new Error("no room for the job");
    });
    bus.on("ticket.changed", { id: "c", phase: "commit" }, (e) => seen.push(e.ticket.id));
    await expect(bus.write(tx, ticket(1))).rejects.toThrow("no room");
    expect(seen).toEqual([]);
  });

  it("logs a failing commit or detached listener and still runs the others", async () => {
    const bus = new EventBus(log);
    errors.length = 0;
    const seen: string[] = [];
    bus.on("ticket.changed", { id: "bad-commit", phase: "commit" }, () => {
      throw new Error("socket gone");
    });
    bus.on("ticket.changed", { id: "good-commit", phase: "commit" }, () => seen.push("commit"));
    bus.on("ticket.changed", { id: "bad-detached", phase: "detached" }, async () => {
      throw new Error("bot down");
    });
    bus.on("ticket.changed", { id: "good-detached", phase: "detached" }, async () => {
      seen.push("detached");
    });
    expect(() => bus.publish(ticket(3))).not.toThrow();
    await bus.idle();
    expect(seen).toEqual(["commit", "detached"]);
    expect(errors).toEqual([
      expect.objectContaining({ listener: "bad-commit", event: "ticket.changed", companyId: 1 }),
      expect.objectContaining({ listener: "bad-detached", event: "ticket.changed", companyId: 1 }),
    ]);
  });

  it("runs a laned detached listener one event at a time per lane, in publication order, off the publisher's path", async () => {
    const bus = new EventBus(log);
    const seen: string[] = [];
    const gates = new Map<number, () => void>();
    bus.on("ticket.changed", { id: "bot", phase: "detached", lane: (e) => String(e.ticket.id % 2) }, async (e) => {
      seen.push(`start ${e.ticket.id}`);
      await new Promise<void>((r) => gates.set(e.ticket.id, r));
      seen.push(`end ${e.ticket.id}`);
    });
    bus.publish(ticket(1));
    bus.publish(ticket(2));
    bus.publish(ticket(3));
    // publish returned with nothing run yet on its path
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["start 1", "start 2"]);
    expect(bus.busy("bot", "1")).toBe(true);
    gates.get(1)?.();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["start 1", "start 2", "end 1", "start 3"]);
    gates.get(2)?.();
    gates.get(3)?.();
    await bus.idle();
    expect(seen.slice(4)).toEqual(["end 2", "end 3"]);
    expect(bus.busy("bot", "1")).toBe(false);
  });
});

describe("EventBus durable listeners", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await getTestApp();
  });
  afterAll(() => t.close());

  let kinds = 0;
  /** A job kind of this test's own (a sweep claims only kinds it knows), a bus with one durable listener of it. */
  function durableBus() {
    const runs: number[] = [];
    const kind = defineJobKind({
      kind: `test.durable-${++kinds}`,
      payload: z.object({ ticketId: z.number() }),
      run: async (_s, job) => {
        runs.push(job.payload.ticketId);
      },
    });
    const s = t.app.charla;
    const bus = new EventBus(log, {
      enqueue: (tx, job) => enqueue(tx, job.companyId, job.kind, job.payload, { idempotencyKey: job.idempotencyKey }),
      runNow: (jobId) => runJobNow(s, [kind], jobId),
    });
    bus.on("ticket.changed", {
      id: "test.durable",
      phase: "durable",
      job: (e) => ({ companyId: e.companyId, kind, payload: { ticketId: e.ticket.id }, idempotencyKey: `ticket-${e.ticket.id}` }),
    });
    const rows = (companyId: number) =>
      s.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, kind.kind)));
    return { bus, kind, runs, rows, services: { db: s.db, events: bus } };
  }

  it("writes the job in the publisher's transaction and runs it once on this node after the commit", async () => {
    const c = await buildCompany(t.app);
    const d = durableBus();
    const seen: string[] = [];
    d.bus.on("ticket.changed", { id: "c", phase: "commit" }, (e) => seen.push(`commit ${e.ticket.id}`));
    await withTransaction(d.services, async (tx, { publish }) => {
      await publish(ticket(41, c.id));
      // in the transaction already, not run yet
      const inside = await tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.companyId, c.id), eq(jobs.kind, d.kind.kind)));
      expect(inside).toMatchObject([{ state: "pending", payload: { ticketId: 41 }, idempotencyKey: "ticket-41" }]);
      expect(d.runs).toEqual([]);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(["commit 41"]);
    await d.bus.idle();
    expect(d.runs).toEqual([41]);
    expect(await d.rows(c.id)).toMatchObject([{ state: "done", attempts: 1 }]);
    // the same cause published again: its key is used, so no second job and no second run
    await withTransaction(d.services, async (_tx, { publish }) => publish(ticket(41, c.id)));
    await d.bus.idle();
    expect(d.runs).toEqual([41]);
    expect(await d.rows(c.id)).toHaveLength(1);
  });

  it("leaves no job and runs nothing when the transaction rolls back", async () => {
    const c = await buildCompany(t.app);
    const d = durableBus();
    await expect(
      withTransaction(d.services, async (_tx, { publish }) => {
        await publish(ticket(42, c.id));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await d.bus.idle();
    expect(d.runs).toEqual([]);
    expect(await d.rows(c.id)).toEqual([]);
  });

  it("keeps the job for the runner when the process dies between the commit and the run", async () => {
    const c = await buildCompany(t.app);
    const d = durableBus();
    // the publisher's half only: the row commits, and what follows the commit never happens (a crash)
    await t.app.charla.db.transaction(async (tx) => {
      await d.bus.write(tx, ticket(43, c.id));
    });
    await d.bus.idle();
    expect(d.runs).toEqual([]);
    expect(await d.rows(c.id)).toMatchObject([{ state: "pending", attempts: 0 }]);
    // any node's runner finds it
    expect(await jobSweep([d.kind]).batch(t.app.charla, new Date(Date.now() + 1000), 10)).toBe(1);
    expect(d.runs).toEqual([43]);
    expect(await d.rows(c.id)).toMatchObject([{ state: "done", attempts: 1 }]);
  });

  it("refuses an event with a durable listener published outside a transaction, and a bus without jobs refuses the listener", () => {
    const d = durableBus();
    expect(() => d.bus.publish(ticket(44))).toThrow(/durable listeners \(test\.durable\).*inside its transaction/);
    const bare = new EventBus(log);
    expect(() => bare.on("ticket.changed", { id: "x", phase: "durable", job: () => null })).toThrow(/built without jobs/);
  });
});
