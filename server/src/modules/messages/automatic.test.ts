import { Ack } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChannelDriver, SendOptions, Sent } from "../../channels/driver.js";
import { jobs, messages } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { deliverMessagesJob } from "../../jobs/durable/deliver-messages.js";
import { runJobNow } from "../../jobs/durable/run.js";
import { failInterruptedSends } from "../../jobs/interrupted-sends.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { scenario } from "../../test/scenario.js";
import { queueAutomatic } from "./automatic.js";

// its own database: failInterruptedSends acts on every company's rows
let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

const s = () => t.app.charla;
const db = () => t.app.charla.db;

/** A driver that records each send (text and the id it was given) and fails when told to. */
function fakeDriver(fail = false) {
  const sends: { body: string; id?: string }[] = [];
  const sendText = async (_number: string, body: string, opts?: SendOptions): Promise<Sent> => {
    sends.push({ body, id: opts?.messageId });
    if (fail) throw Object.assign(new Error("socket closed"), { code: "ERR_SENDING_WAPP_MSG" });
    return { channelId: opts?.messageId ?? "own", timestamp: new Date() };
  };
  return { driver: { provider: "fake", sendText } as unknown as ChannelDriver, sends };
}

let restore: (() => void) | null = null;
function useDriver(driver: ChannelDriver | null) {
  const sessions = s().sessions;
  const original = sessions.driverFor.bind(sessions);
  sessions.driverFor = async () => driver;
  restore = () => {
    sessions.driverFor = original;
  };
}
afterEach(() => {
  restore?.();
  restore = null;
});

async function world() {
  const w = await scenario(t.app, { queues: { queue: {} }, login: false });
  const ticket = await w.ticket({ status: "open" });
  return { ...w, ticket };
}

const rowsOf = (ticketId: number) => db().select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);
const jobsOf = (companyId: number) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, deliverMessagesJob.kind)));

/** What a cause's transaction does: its change (here the ticket's last message), then the messages it causes. */
function cause(w: Awaited<ReturnType<typeof world>>, texts: string[], fail = false) {
  return withTransaction(s(), async (tx, { publish }) => {
    await tx.execute(sql`update tickets set last_message = 'changed' where id = ${w.ticket.id}`);
    const rows = await queueAutomatic({ tx, publish }, w.companyId, w.ticket, texts);
    if (fail) throw new Error("the cause failed after recording");
    return rows;
  });
}

describe("automatic messages: recorded with their cause, sent by a job", () => {
  it("commits the message rows and their delivery job with the change that causes them, and neither when it rolls back", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);

    await expect(cause(w, ["Nunca existió"], true)).rejects.toThrow("the cause failed");
    await s().events.idle();
    expect(await rowsOf(w.ticket.id)).toEqual([]);
    expect(await jobsOf(w.companyId)).toEqual([]);
    expect(fake.sends).toEqual([]);

    const recorded = await cause(w, ["Hola", "¿En qué ayudamos?"]);
    const [job] = await jobsOf(w.companyId);
    expect(job).toMatchObject({
      payload: { messageIds: recorded.map((r) => r.id) },
      idempotencyKey: recorded[0].channelId,
    });
    expect(recorded.map((r) => ({ ack: r.ack, isAutomatic: r.isAutomatic }))).toEqual([
      { ack: Ack.queued, isAutomatic: true },
      { ack: Ack.queued, isAutomatic: true },
    ]);

    // right after the commit this node runs the job: in order, under the ids recorded
    await s().events.idle();
    expect(fake.sends).toEqual(recorded.map((r) => ({ body: r.body, id: r.channelId })));
    const sent = await rowsOf(w.ticket.id);
    expect(sent.map((r) => r.ack >= Ack.pending)).toEqual([true, true]);
    expect((await jobsOf(w.companyId))[0]).toMatchObject({ state: "done", attempts: 1 });
  });

  it("sends nothing twice when the job runs again, and sends a message cut off mid-send again under its recorded id", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const [first, second] = await cause(w, ["Uno", "Dos"]);
    await s().events.idle();
    expect(fake.sends).toHaveLength(2);

    // the node died after the sends, before the job was marked done: the run after it finds nothing queued
    const [job] = await jobsOf(w.companyId);
    await db().update(jobs).set({ state: "pending" }).where(eq(jobs.id, job.id));
    expect(await runJobNow(s(), [deliverMessagesJob], job.id)).toBe(true);
    expect(fake.sends).toHaveLength(2);

    // the node died while the second one was being handed to the channel: it goes again, with its id
    await db().update(messages).set({ ack: Ack.queued }).where(eq(messages.id, second.id));
    await db().update(jobs).set({ state: "pending" }).where(eq(jobs.id, job.id));
    await runJobNow(s(), [deliverMessagesJob], job.id);
    expect(fake.sends.map((x) => x.id)).toEqual([first.channelId, second.channelId, second.channelId]);
    // a job that is not pending (done, or claimed by another node) is not run here
    expect(await runJobNow(s(), [deliverMessagesJob], job.id)).toBe(false);
  });

  it("delivers a queued message in five statements and no transaction: claim, read, completion, its view, the outcome", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    // recorded with the job, not run yet: the run below is the one measured
    await withTransaction(db(), (tx) => queueAutomatic({ tx, publish: async () => undefined }, w.companyId, w.ticket, ["Hola"]));
    const [job] = await jobsOf(w.companyId);
    const client = (db() as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const statements = vi.spyOn(client, "query");
    const transactions = vi.spyOn(db(), "transaction");
    try {
      expect(await runJobNow(s(), [deliverMessagesJob], job.id)).toBe(true);
      expect(transactions).not.toHaveBeenCalled();
      expect(statements).toHaveBeenCalledTimes(5);
    } finally {
      statements.mockRestore();
      transactions.mockRestore();
    }
    expect(fake.sends).toHaveLength(1);
    expect((await rowsOf(w.ticket.id))[0].ack).toBeGreaterThanOrEqual(Ack.pending);
    expect((await jobsOf(w.companyId))[0]).toMatchObject({ state: "done", attempts: 1 });
  });

  it("keeps the message queued while no session is reachable, out of the interrupted sends' reach, and marks it failed at the last attempt", async () => {
    const w = await world();
    useDriver(null);
    const [row] = await cause(w, ["Hola"]);
    await s().events.idle();
    const [job] = await jobsOf(w.companyId);
    expect(job).toMatchObject({ state: "pending", attempts: 1, lastError: expect.stringMatching(/ERR_WAPP_NOT_INITIALIZED/) });
    expect(job.runAfter.getTime()).toBeGreaterThan(Date.now());
    expect((await rowsOf(w.ticket.id))[0].ack).toBe(Ack.queued);

    // long past the interrupted sends' limit: the job still owns the row
    await db().update(messages).set({ updatedAt: sql`now() - interval '1 hour'` }).where(eq(messages.id, row.id));
    await failInterruptedSends(s());
    expect((await rowsOf(w.ticket.id))[0].ack).toBe(Ack.queued);

    await db()
      .update(jobs)
      .set({ attempts: (deliverMessagesJob.maxAttempts ?? 8) - 1 })
      .where(eq(jobs.id, job.id));
    await runJobNow(s(), [deliverMessagesJob], job.id);
    expect((await rowsOf(w.ticket.id))[0]).toMatchObject({ ack: Ack.failed, ackError: "ERR_WAPP_NOT_INITIALIZED" });
    expect((await jobsOf(w.companyId))[0]).toMatchObject({ state: "done" });
  });

  it("records a message the channel refused as failed, once, without failing its cause", async () => {
    const w = await world();
    const fake = fakeDriver(true);
    useDriver(fake.driver);
    await cause(w, ["Hola, soy su agente"]);
    await s().events.idle();
    expect(await rowsOf(w.ticket.id)).toMatchObject([{ body: "Hola, soy su agente", isAutomatic: true, ack: Ack.failed }]);
    expect(fake.sends).toHaveLength(1);
    expect((await jobsOf(w.companyId))[0]).toMatchObject({ state: "done", attempts: 1 });
  });
});
