import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, queues, ticketCounts, tickets, users } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
  type Session,
} from "../../test/factories.js";
import { caller } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const db = () => t.app.charla.db;

/** ticket_counts as it should be: the company's tickets grouped by status, queue and assignee. */
async function expectCountersExact(companyId: number) {
  const truth = await db()
    .select({
      status: tickets.status,
      queueId: sql<number>`coalesce(${tickets.queueId}, 0)::int`,
      userId: sql<number>`coalesce(${tickets.userId}, 0)::int`,
      n: sql<number>`count(*)::int`,
    })
    .from(tickets)
    .where(eq(tickets.companyId, companyId))
    .groupBy(sql`1, 2, 3`);
  const kept = await db()
    .select({ status: ticketCounts.status, queueId: ticketCounts.queueId, userId: ticketCounts.userId, n: ticketCounts.n })
    .from(ticketCounts)
    .where(and(eq(ticketCounts.companyId, companyId), sql`${ticketCounts.n} <> 0`));
  const key = (r: { status: string; queueId: number; userId: number }) => `${r.status}/${r.queueId}/${r.userId}`;
  const sort = <T extends { status: string; queueId: number; userId: number }>(rows: T[]) =>
    [...rows].sort((a, b) => key(a).localeCompare(key(b)));
  expect(sort(kept)).toEqual(sort(truth));
}

type Page = { tickets: { id: number }[]; count: number };

/** The badge count agrees with the rows the same query lists (every ticket fits in one page here). */
async function expectCountMatchesRows(s: Session, query: string) {
  const res = await call(s, "GET", `/tickets?${query}`);
  expect(res.statusCode).toBe(200);
  const page = res.json() as Page;
  expect(page.count, query).toBe(page.tickets.length);
  return page.count;
}

describe("#tickets counts kept beside the tickets", () => {
  it("stay exact through creation, transfers, closing, deletion and deleted queues and users", async () => {
    const c = await buildCompany(t.app);
    const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED", isDefault: true });
    const sales = await buildQueue(t.app, c.id, { name: "Ventas" });
    const support = await buildQueue(t.app, c.id, { name: "Soporte" });
    const ana = await buildUser(t.app, c.id, { name: "Ana" });
    const beto = await buildUser(t.app, c.id, { name: "Beto", allTicket: "enable" });
    await addUserQueue(t.app, c.id, ana.id, sales.id);
    await addUserQueue(t.app, c.id, beto.id, support.id);
    const [admin, sAna, sBeto] = await Promise.all([c.admin, ana, beto].map((u) => login(t.app, u)));

    const placements = [
      { status: "pending", queueId: sales.id, userId: null },
      { status: "pending", queueId: null, userId: null },
      { status: "pending", queueId: support.id, userId: null },
      { status: "open", queueId: sales.id, userId: ana.id },
      { status: "open", queueId: support.id, userId: beto.id },
      { status: "open", queueId: null, userId: c.admin.id },
      { status: "closed", queueId: sales.id, userId: ana.id },
      { status: "closed", queueId: support.id, userId: beto.id },
    ];
    const made = [];
    for (let i = 0; i < 24; i++) {
      const contact = await buildContact(t.app, c.id);
      const p = placements[i % placements.length];
      made.push(await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: wa.id, ...p }));
    }

    const queries = [
      "status=pending",
      "status=open",
      "status=open&showAll=true",
      "status=closed",
      `status=pending&queueIds=[${sales.id}]`,
      `status=open&showAll=true&queueIds=[${sales.id},${support.id}]`,
      `status=closed&users=[${ana.id}]`,
      "",
    ];
    const check = async (sessions = [admin, sAna, sBeto]) => {
      await expectCountersExact(c.id);
      for (const s of sessions) for (const q of queries) await expectCountMatchesRows(s, q);
    };
    await check();
    expect(await expectCountMatchesRows(admin, "status=pending")).toBe(9);

    // a transfer, an acceptance, a close and a reopen through the API
    const pendingSales = made[0];
    const accepted = await call(admin, "PUT", `/tickets/${pendingSales.id}`, { status: "open", userId: ana.id });
    expect(accepted.statusCode).toBe(200);
    const transferred = await call(admin, "PUT", `/tickets/${made[3].id}`, { queueId: support.id, userId: beto.id });
    expect(transferred.statusCode).toBe(200);
    const closed = await call(admin, "PUT", `/tickets/${made[4].id}`, { status: "closed" });
    expect(closed.statusCode).toBe(200);
    await check();

    // several tickets in one statement, in both directions at once
    await db()
      .update(tickets)
      .set({ status: "closed" })
      .where(and(eq(tickets.companyId, c.id), eq(tickets.status, "pending")));
    await db().update(tickets).set({ lastMessage: "nada que contar" }).where(eq(tickets.companyId, c.id));
    await check();

    // deleting a ticket, a queue (its tickets lose it) and a user (their tickets lose them)
    const deleted = await call(admin, "DELETE", `/tickets/${made[7].id}`);
    expect(deleted.statusCode).toBe(204);
    await db().delete(queues).where(eq(queues.id, sales.id));
    await db().delete(users).where(eq(users.id, ana.id));
    // Ana's session went with her
    await check([admin, sBeto]);
  });

  it("lets a company with tickets be deleted, taking its counters along", async () => {
    const c = await buildCompany(t.app);
    const contact = await buildContact(t.app, c.id);
    await buildTicket(t.app, c.id, { contactId: contact.id });
    await expectCountersExact(c.id);
    await db().delete(companies).where(eq(companies.id, c.id));
    const left = await db().select().from(ticketCounts).where(eq(ticketCounts.companyId, c.id));
    expect(left).toEqual([]);
  });
});
