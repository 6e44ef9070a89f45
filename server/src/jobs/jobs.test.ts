import { Events } from "@charla/contracts";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, tickets, ticketTracking, whatsapps } from "../db/schema/index.js";
import { type TestApp, getIsolatedTestApp, getTestApp } from "../test/app.js";
import { captureEvents } from "../test/events.js";
import { buildMessage, buildQueue } from "../test/factories.js";
import { scenario } from "../test/scenario.js";
import { routeDelayedTickets } from "./delayed-routing.js";
import { runSweeps, startJobRunner } from "./runner.js";
import { expireInactiveTickets } from "./ticket-expiry.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

const db = () => t.app.charla.db;
const MIN = 60_000;
const HOUR = 60 * MIN;
const later = (ms: number) => new Date(Date.now() + ms);
const EXPIRY_TEXT = "Cerramos su atención por inactividad, {{firstName}}. Protocolo {{protocol}}";

/** A company whose simulator connection routes queue-less tickets after 10 min and expires silent ones after 2 h. */
async function world(opts: { status?: string; dueDate?: string; companyActive?: boolean } = {}) {
  const w = await scenario(t.app, {
    company: { dueDate: opts.dueDate ?? "2099-12-31", status: opts.companyActive ?? true },
    queues: { fallback: "Recepción" },
    connection: (q) => ({
      status: opts.status ?? "CONNECTED",
      timeSendQueue: 10,
      sendIdQueue: q.fallback.id,
      expiresTicket: 2,
      expiresInactiveMessage: EXPIRY_TEXT,
    }),
    agents: { agent: { name: "Ana" } },
    login: false,
  });
  const ticket = (values: Partial<typeof tickets.$inferInsert> = {}, name = "Lucía Fernández") =>
    w.ticket({ queueId: null, ...values }, { name, isGroup: values.isGroup ?? false });
  /** An open ticket of Ana whose last message, now, is ours (or the contact's). */
  const openTicket = async (lastFromMe = true, values: Partial<typeof tickets.$inferInsert> = {}) => {
    const tk = await ticket({ status: "open", userId: w.agent.id, ...values });
    await buildMessage(t.app, tk, { fromMe: !lastFromMe, body: "hola" });
    await buildMessage(t.app, tk, { fromMe: lastFromMe, body: "¿algo más?" });
    return tk;
  };
  return { ...w, ticket, openTicket };
}

const ticketOf = async (id: number) => (await db().select().from(tickets).where(eq(tickets.id, id)))[0];
const automaticOf = (ids: number[]) =>
  db()
    .select()
    .from(messages)
    .where(and(inArray(messages.ticketId, ids), eq(messages.isAutomatic, true)))
    .orderBy(asc(messages.id));

/** Ticket update events per ticket id, as the sweeps announce them. */
function updatesPerTicket(events: { event: string; payload: unknown }[]) {
  const n = new Map<number, number>();
  for (const e of events) {
    const p = e.payload as { action?: string; ticket?: { id: number } };
    if (e.event.endsWith("-ticket") && p.action === "update" && p.ticket) n.set(p.ticket.id, (n.get(p.ticket.id) ?? 0) + 1);
  }
  return n;
}

describe("#jobs delayed routing (sendIdQueue / timeSendQueue)", () => {
  it("moves a pending queue-less ticket to sendIdQueue once the delay passed, once, and tells its audience", async () => {
    const w = await world();
    const tk = await w.ticket();
    const cap = captureEvents(t.app);
    try {
      await routeDelayedTickets(t.app.charla, later(9 * MIN), 50);
      expect((await ticketOf(tk.id)).queueId).toBeNull();
      await routeDelayedTickets(t.app.charla, later(11 * MIN), 50);
      await routeDelayedTickets(t.app.charla, later(12 * MIN), 50);
    } finally {
      cap.restore();
    }
    expect(await ticketOf(tk.id)).toMatchObject({ status: "pending", queueId: w.fallback.id, userId: null });
    const [episode] = await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, tk.id));
    expect(episode.queueId).toBe(w.fallback.id);
    expect(updatesPerTicket(cap.events).get(tk.id)).toBe(1);
    const update = cap.on(Events.ticket(w.companyId)).find((p) => (p as { ticket: { id: number } }).ticket.id === tk.id);
    expect(update).toMatchObject({ action: "update", ticket: { id: tk.id, queue: { name: "Recepción" } } });
    expect(await automaticOf([tk.id])).toEqual([]);
  });

  it("leaves groups, tickets with a queue or an agent, disconnected connections and companies not in good standing", async () => {
    const w = await world();
    const group = await w.ticket({ isGroup: true });
    const queued = await w.ticket({ queueId: (await buildQueue(t.app, w.companyId)).id });
    const open = await w.ticket({ status: "open", userId: w.agent.id });
    const off = await world({ status: "DISCONNECTED" });
    const offTicket = await off.ticket();
    const pastDue = await world({ dueDate: "2020-01-01" });
    const pastDueTicket = await pastDue.ticket();
    const inactive = await world({ companyActive: false });
    const inactiveTicket = await inactive.ticket();
    await routeDelayedTickets(t.app.charla, later(HOUR), 50);
    expect((await ticketOf(group.id)).queueId).toBeNull();
    expect((await ticketOf(queued.id)).queueId).toBe(queued.queueId);
    expect((await ticketOf(open.id)).queueId).toBeNull();
    for (const x of [offTicket, pastDueTicket, inactiveTicket]) expect((await ticketOf(x.id)).queueId).toBeNull();
  });
});

describe("#jobs expiry (expiresTicket)", () => {
  it("closes an open ticket silent since our last message once, with the expiry message recorded once", async () => {
    const w = await world();
    const tk = await w.openTicket();
    await expireInactiveTickets(t.app.charla, later(HOUR), 50);
    expect((await ticketOf(tk.id)).status).toBe("open");

    const cap = captureEvents(t.app);
    const now = later(2 * HOUR + MIN);
    try {
      await expireInactiveTickets(t.app.charla, now, 50);
      await expireInactiveTickets(t.app.charla, later(3 * HOUR), 50);
      // the message's job runs right after the close commits, off the sweep's path
      await t.app.charla.events.idle();
    } finally {
      cap.restore();
    }
    expect(await ticketOf(tk.id)).toMatchObject({ status: "closed", userId: w.agent.id, chatbot: false });
    const sent = await automaticOf([tk.id]);
    expect(sent).toHaveLength(1);
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Noronha" }).format(now).replaceAll("-", "");
    expect(sent[0]).toMatchObject({
      body: `Cerramos su atención por inactividad, Lucía. Protocolo ${day}${tk.id}`,
      fromMe: true,
      isAutomatic: true,
      userId: null,
    });
    // handed to the simulator after the commit
    expect(sent[0].ack).toBeGreaterThanOrEqual(1);
    const episodes = await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, tk.id));
    expect(episodes).toHaveLength(1);
    expect(episodes[0].finishedAt).not.toBeNull();
    // announced twice in all: the close, then the message with its ticket; the second sweep added nothing
    expect(updatesPerTicket(cap.events).get(tk.id)).toBe(2);
    // created once (the simulator's receipts may follow as updates)
    const created = cap
      .on(Events.appMessage(w.companyId))
      .filter((p) => (p as { ticket: { id: number } }).ticket.id === tk.id && (p as { action: string }).action === "create");
    expect(created).toHaveLength(1);
  });

  it("closes without a message when the connection has none", async () => {
    const w = await world();
    await db().update(whatsapps).set({ expiresInactiveMessage: "" }).where(eq(whatsapps.id, w.connection.id));
    const tk = await w.openTicket();
    await expireInactiveTickets(t.app.charla, later(3 * HOUR), 50);
    expect((await ticketOf(tk.id)).status).toBe("closed");
    expect(await automaticOf([tk.id])).toEqual([]);
  });

  it("leaves tickets whose last word is the contact's, groups, pending ones, disconnected connections and companies past due", async () => {
    const w = await world();
    const theirs = await w.openTicket(false);
    const group = await w.openTicket(true, { isGroup: true });
    const pending = await w.ticket();
    await buildMessage(t.app, pending, { fromMe: true });
    const off = await world({ status: "DISCONNECTED" });
    const offTicket = await off.openTicket();
    const pastDue = await world({ dueDate: "2020-01-01" });
    const pastDueTicket = await pastDue.openTicket();
    const never = await world();
    await db().update(whatsapps).set({ expiresTicket: 0 }).where(eq(whatsapps.id, never.connection.id));
    const neverTicket = await never.openTicket();
    await expireInactiveTickets(t.app.charla, later(48 * HOUR), 50);
    for (const x of [theirs, group, offTicket, pastDueTicket, neverTicket]) expect((await ticketOf(x.id)).status).toBe("open");
    expect((await ticketOf(pending.id)).status).toBe("pending");
    expect(await automaticOf([theirs.id, group.id, pending.id, offTicket.id, pastDueTicket.id, neverTicket.id])).toEqual([]);
  });
});

describe("#jobs runner", () => {
  it("runs the sweeps in rounds until the backlog is done, and stops cleanly", async () => {
    const w = await world();
    const routed = await Promise.all(Array.from({ length: 7 }, () => w.ticket()));
    const expiring = await Promise.all(Array.from({ length: 7 }, () => w.openTicket()));
    const runner = startJobRunner(t.app.charla, { intervalMs: 10, now: () => later(3 * HOUR), batchSize: 3 });
    const deadline = Date.now() + 20_000;
    const done = async () => {
      const rows = await db()
        .select()
        .from(tickets)
        .where(
          inArray(
            tickets.id,
            [...routed, ...expiring].map((x) => x.id),
          ),
        );
      return rows.filter((r) => r.queueId === w.fallback.id || r.status === "closed").length === 14;
    };
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await runner.stop();
    expect(await done()).toBe(true);
    expect(await automaticOf(expiring.map((x) => x.id))).toHaveLength(7);
  });

  // PGlite is one connection: two nodes claiming at once need a real PostgreSQL
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "two nodes sweeping at once move and close each ticket exactly once and record each message once",
    async () => {
      // with Redis the node not holding the session sends through the one that does, so both close tickets
      const nodes = process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {};
      const one = await getTestApp(nodes, t.database);
      const other = await getTestApp(nodes, t.database);
      try {
        const w = await world();
        const routed = await Promise.all(Array.from({ length: 40 }, () => w.ticket()));
        const expiring = await Promise.all(Array.from({ length: 40 }, () => w.openTicket()));
        const capA = captureEvents(one.app);
        const capB = captureEvents(other.app);
        const now = () => later(3 * HOUR);
        try {
          await Promise.all([
            runSweeps(one.app.charla, { now, batchSize: 4 }),
            runSweeps(other.app.charla, { now, batchSize: 4 }),
            runSweeps(one.app.charla, { now, batchSize: 7 }),
            runSweeps(other.app.charla, { now, batchSize: 7 }),
          ]);
          // the expiry messages' jobs run on the node that recorded them, right after its commit
          await Promise.all([one.app.charla.events.idle(), other.app.charla.events.idle()]);
        } finally {
          capA.restore();
          capB.restore();
        }
        const rows = await db()
          .select()
          .from(tickets)
          .where(
            inArray(
              tickets.id,
              [...routed, ...expiring].map((x) => x.id),
            ),
          );
        const byId = new Map(rows.map((r) => [r.id, r]));
        expect(routed.filter((x) => byId.get(x.id)?.queueId !== w.fallback.id)).toEqual([]);
        expect(expiring.filter((x) => byId.get(x.id)?.status !== "closed")).toEqual([]);
        const sent = await automaticOf(expiring.map((x) => x.id));
        expect(sent).toHaveLength(40);
        expect(new Set(sent.map((m) => m.ticketId)).size).toBe(40);
        // each ticket's change was announced by one node, once
        const a = updatesPerTicket(capA.events.filter((e) => e.companyId === w.companyId));
        const b = updatesPerTicket(capB.events.filter((e) => e.companyId === w.companyId));
        const announcedTwice = routed.filter((x) => (a.get(x.id) ?? 0) + (b.get(x.id) ?? 0) !== 1);
        expect(announcedTwice).toEqual([]);
        const finished = await db()
          .select()
          .from(ticketTracking)
          .where(
            inArray(
              ticketTracking.ticketId,
              expiring.map((x) => x.id),
            ),
          );
        expect(finished.filter((e) => e.finishedAt === null)).toEqual([]);
        // every expiry message went out, whichever node recorded it
        expect(sent.filter((m) => m.ack < 1)).toEqual([]);
      } finally {
        // the simulator's delivery receipts (up to 300 ms) land before the nodes' Redis clients close
        await new Promise((r) => setTimeout(r, 500));
        await one.close();
        await other.close();
      }
    },
  );
});
