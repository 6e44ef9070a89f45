import { BOT_HOLD_MS, Events, type TicketView } from "@charla/contracts";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoped } from "../../db/scoped.js";
import { messages, settings, tickets as ticketsTable, type tickets, ticketTracking } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildMessage,
  buildQueue,
  buildTag,
  buildTicket,
  buildUser,
  login,
  type Session,
} from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { presentTickets } from "./presenter.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

/** Two queues, an agent per queue, Carla with allTicket; tickets are one contact's and queue-less unless told. */
async function world() {
  const w = await scenario(t.app, {
    queues: { sales: "Ventas", support: "Soporte" },
    agents: {
      ana: { name: "Ana", queues: ["sales"] },
      beto: { name: "Beto", queues: ["support"] },
      carla: { name: "Carla", allTicket: "enable" },
    },
  });
  const contact = await w.contact();
  const ticket = (values: Partial<typeof tickets.$inferInsert> = {}) =>
    w.ticket({ contactId: contact.id, queueId: null, ...values });
  return { ...w, contact, ticket };
}

const list = async (s: Session, query: string) => {
  const res = await call(s, "GET", `/tickets?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { tickets: TicketView[]; count: number; hasMore: boolean; userQueues: { id: number }[] };
};
const ids = (page: { tickets: { id: number }[] }) => page.tickets.map((x) => x.id);

describe("#tickets visibility (core §6)", () => {
  it("shows an agent the pending tickets of their queues only; queue-less ones with allTicket", async () => {
    const w = await world();
    const inSales = await w.ticket({ queueId: w.sales.id });
    const inSupport = await w.ticket({ queueId: w.support.id, contactId: (await buildContact(t.app, w.companyId)).id });
    const noQueue = await w.ticket({ contactId: (await buildContact(t.app, w.companyId)).id });

    expect(ids(await list(w.as.ana, "status=pending"))).toEqual([inSales.id]);
    expect(ids(await list(w.as.beto, "status=pending"))).toEqual([inSupport.id]);
    expect(ids(await list(w.as.carla, "status=pending"))).toEqual([noQueue.id]);
    expect(ids(await list(w.admin, "status=pending")).sort()).toEqual([inSales.id, inSupport.id, noQueue.id].sort());

    // direct reads follow the same rule; another agent's ticket is simply not found
    expectError(await call(w.as.ana, "GET", `/tickets/${inSupport.id}`), 404, "ERR_NO_TICKET_FOUND");
    expectError(await call(w.as.ana, "GET", `/tickets/u/${inSupport.uuid}`), 404, "ERR_NO_TICKET_FOUND");
    expect((await call(w.as.ana, "GET", `/tickets/u/${inSales.uuid}`)).json()).toMatchObject({
      id: inSales.id,
      queue: { name: "Ventas" },
    });
    expectError(await call(w.as.ana, "GET", `/messages/${inSupport.id}`), 404, "ERR_NO_TICKET_FOUND");
    // userQueues: an agent's own, all of them for staff
    expect((await list(w.as.ana, "status=pending")).userQueues.map((q) => q.id)).toEqual([w.sales.id]);
    expect((await list(w.admin, "status=pending")).userQueues).toHaveLength(2);
  });

  it("shows open tickets of others only with showAll, which agents cannot use", async () => {
    const w = await world();
    const mine = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.ana.id });
    const adminsOwn = await w.ticket({
      queueId: w.sales.id,
      status: "open",
      userId: w.company.admin.id,
      contactId: (await buildContact(t.app, w.companyId)).id,
    });
    expect(ids(await list(w.as.ana, "status=open"))).toEqual([mine.id]);
    expect(ids(await list(w.as.ana, "status=open&showAll=true"))).toEqual([mine.id]);
    expect(ids(await list(w.admin, "status=open"))).toEqual([adminsOwn.id]);
    expect(ids(await list(w.admin, "status=open&showAll=true")).sort()).toEqual([mine.id, adminsOwn.id].sort());
  });

  it("filters by queues, tags, users, unread, dates and search, and pages 40 at a time", async () => {
    const w = await world();
    const tag1 = await buildTag(t.app, w.companyId);
    const tag2 = await buildTag(t.app, w.companyId);
    const maria = await buildContact(t.app, w.companyId, { name: "María Búsqueda", number: "5491155550000" });
    const a = await w.ticket({ queueId: w.sales.id, unreadMessages: 2, lastMessage: "quiero un presupuesto" });
    const b = await w.ticket({ queueId: w.support.id, contactId: maria.id });
    await buildMessage(t.app, a, { body: "quiero un presupuesto" });
    const sync = (ticketId: number, tags: number[]) =>
      call(w.admin, "POST", "/tags/sync", { ticketId, tags: tags.map((id) => ({ id })) });
    expect((await sync(a.id, [tag1.id, tag2.id])).statusCode).toBe(200);
    expect((await sync(b.id, [tag1.id])).statusCode).toBe(200);

    expect(ids(await list(w.admin, `status=pending&queueIds=${encodeURIComponent(JSON.stringify([w.support.id]))}`))).toEqual([
      b.id,
    ]);
    expect(ids(await list(w.admin, `tags=${encodeURIComponent(JSON.stringify([tag1.id, tag2.id]))}`))).toEqual([a.id]);
    expect(ids(await list(w.admin, `tags=[${tag1.id}]`)).sort()).toEqual([a.id, b.id].sort());
    expect(ids(await list(w.admin, "withUnreadMessages=true"))).toEqual([a.id]);
    expect(ids(await list(w.admin, "searchParam=busque"))).toEqual([]);
    expect(ids(await list(w.admin, "searchParam=Búsqueda"))).toEqual([b.id]);
    expect(ids(await list(w.admin, "searchParam=5555000"))).toEqual([b.id]);
    expect(ids(await list(w.admin, "searchParam=presupuesto"))).toEqual([a.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(await list(w.admin, `date=${today}`))).toHaveLength(2);
    expect(ids(await list(w.admin, "date=2001-01-01"))).toEqual([]);
    expect((await call(w.admin, "GET", "/tickets?queueIds=[oops")).statusCode).toBe(400);
    expect((await call(w.admin, "GET", "/tickets?status=lost")).statusCode).toBe(400);

    const extra = await Promise.all(
      Array.from({ length: 41 }, async () =>
        w.ticket({ queueId: w.sales.id, contactId: (await buildContact(t.app, w.companyId)).id }),
      ),
    );
    const page1 = await list(w.admin, "status=pending");
    expect(page1.tickets).toHaveLength(40);
    expect(page1).toMatchObject({ count: extra.length + 2, hasMore: true });
    const page2 = await list(w.admin, "status=pending&pageNumber=2");
    expect(page2.tickets).toHaveLength(3);
    expect(page2.hasMore).toBe(false);
    expect(new Set([...ids(page1), ...ids(page2)]).size).toBe(43);
  });
});

describe("#tickets presentation", () => {
  it("lists each ticket as the single read and the socket events present it (built by PostgreSQL for the list)", async () => {
    const w = await world();
    const tag1 = await buildTag(t.app, w.companyId, { name: "B", color: "#112233" });
    const tag2 = await buildTag(t.app, w.companyId, { name: "A" });
    const full = await w.ticket({
      queueId: w.sales.id,
      userId: w.ana.id,
      status: "open",
      unreadMessages: 3,
      lastMessage: "<b>hola</b>",
    });
    await call(w.admin, "POST", "/tags/sync", { ticketId: full.id, tags: [{ id: tag1.id }, { id: tag2.id }] });
    // no connection, queue, assignee or tags: every relation null
    const bare = await buildTicket(t.app, w.companyId, { contactId: (await buildContact(t.app, w.companyId)).id });
    const q = scoped(t.app.charla.db, w.companyId);
    const rows = await q.db.select().from(ticketsTable).where(eq(ticketsTable.companyId, w.companyId));
    const expected = await presentTickets(q, rows);

    const listed = [
      ...(await list(w.admin, "status=open&showAll=true")).tickets,
      ...(await list(w.admin, "status=pending")).tickets,
    ];
    expect(listed).toHaveLength(2);
    for (const view of expected) expect(listed.find((x) => x.id === view.id)).toEqual(view);
    expect(expected.find((v) => v.id === full.id)?.tags.map((x) => x.name)).toEqual(["A", "B"]);
    expect(expected.find((v) => v.id === bare.id)).toMatchObject({ whatsapp: null, queue: null, user: null, tags: [] });
    expect((await call(w.admin, "GET", `/tickets/${full.id}`)).json()).toEqual(expected.find((v) => v.id === full.id));
  });
});

describe("#tickets transitions (core §4)", () => {
  it("accepts, returns, resolves and reopens, recording each episode", async () => {
    const w = await world();
    // a contact who stopped answering the bot's menus: the agent may take it (issue 26, chatbot-watch.test.ts)
    const tk = await w.ticket({ queueId: w.sales.id, chatbot: true, updatedAt: new Date(Date.now() - BOT_HOLD_MS - 60_000) });
    const put = (s: Session, body: object) => call(s, "PUT", `/tickets/${tk.id}`, body);

    const accepted = await put(w.as.ana, { status: "open", userId: w.ana.id });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: "open", userId: w.ana.id, chatbot: false, queue: { id: w.sales.id } });
    // a second agent a moment later learns who has it
    const late = await put(w.admin, { status: "open", userId: w.company.admin.id });
    expectError(late, 409, "ERR_TICKET_ALREADY_ACCEPTED");
    expect(late.json().message).toContain("Ana");

    expect((await put(w.as.ana, { status: "pending", userId: null })).json()).toMatchObject({ status: "pending", userId: null });
    await put(w.as.ana, { status: "open", userId: w.ana.id });
    const closed = await put(w.as.ana, { status: "closed", useIntegration: true, promptId: 3 });
    expect(closed.json()).toMatchObject({ status: "closed", userId: w.ana.id, useIntegration: false, promptId: null });
    expectError(await put(w.as.ana, { status: "pending" }), 400, "ERR_INVALID_TRANSITION");
    expect((await put(w.as.ana, { status: "open", userId: w.ana.id })).json()).toMatchObject({
      status: "open",
      userId: w.ana.id,
    });

    const episodes = await t.app.charla.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, tk.id))
      .orderBy(asc(ticketTracking.id));
    expect(episodes).toHaveLength(2);
    expect(episodes[0]).toMatchObject({ userId: w.ana.id, queueId: w.sales.id });
    expect(episodes[0].startedAt).not.toBeNull();
    expect(episodes[0].finishedAt).not.toBeNull();
    expect(episodes[1]).toMatchObject({ userId: w.ana.id, finishedAt: null });

    const closedList = await call(w.as.ana, "GET", "/closedTickets");
    expect(closedList.json().tickets).toEqual([
      expect.objectContaining({ ticket: expect.objectContaining({ id: tk.id }), user: { id: w.ana.id, name: "Ana" } }),
    ]);
  });

  it("lets agents act only on pending tickets, their own and closed ones; transfer and delete are admin's", async () => {
    const w = await world();
    const anas = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.ana.id });
    const other = await buildUser(t.app, w.companyId);
    await addUserQueue(t.app, w.companyId, other.id, w.sales.id);
    const sOther = await login(t.app, other);
    // a colleague of the same queue does not see Ana's open ticket at all (core §6)
    expectError(await call(sOther, "PUT", `/tickets/${anas.id}`, { status: "closed" }), 404, "ERR_NO_TICKET_FOUND");
    expectError(await call(w.as.ana, "PUT", `/tickets/${anas.id}`, { queueId: w.support.id }), 403, "ERR_NO_PERMISSION");
    expectError(await call(w.as.ana, "DELETE", `/tickets/${anas.id}`), 403, "ERR_NO_PERMISSION");
    expectError(await call(w.as.beto, "PUT", `/tickets/${anas.id}`, { status: "closed" }), 404, "ERR_NO_TICKET_FOUND");
  });

  it("transfers to a queue (pending, no user) or to a user (open), notifying the target", async () => {
    const w = await world();
    const tk = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.ana.id });
    const toQueue = await call(w.admin, "PUT", `/tickets/${tk.id}`, { queueId: w.support.id, userId: null, status: "pending" });
    expect(toQueue.json()).toMatchObject({ status: "pending", userId: null, queueId: w.support.id });
    // Ana lost sight of it, Beto sees it
    expectError(await call(w.as.ana, "GET", `/tickets/${tk.id}`), 404, "ERR_NO_TICKET_FOUND");
    expect((await call(w.as.beto, "GET", `/tickets/${tk.id}`)).statusCode).toBe(200);

    const events: unknown[] = [];
    const original = t.app.charla.realtime.toUser;
    t.app.charla.realtime.toUser = (companyId, userId) => ({
      emit: (event: string, payload: unknown) => {
        if (userId === w.beto.id && event === Events.ticket(companyId)) events.push(payload);
      },
    });
    try {
      const toUser = await call(w.admin, "PUT", `/tickets/${tk.id}`, {
        queueId: w.support.id,
        userId: w.beto.id,
        status: "open",
      });
      expect(toUser.json()).toMatchObject({ status: "open", userId: w.beto.id, user: { name: "Beto" } });
    } finally {
      t.app.charla.realtime.toUser = original;
    }
    expect(events).toEqual([expect.objectContaining({ action: "transfer", toUserId: w.beto.id })]);

    // live: whoever lost sight of it drops it, whoever gained it gets it
    const seen: { userIds: number[]; action: string }[] = [];
    const toUsers = t.app.charla.realtime.toUsers;
    t.app.charla.realtime.toUsers = (companyId, userIds) => ({
      emit: (event: string, payload: unknown) => {
        if (event === Events.ticket(companyId)) seen.push({ userIds, action: (payload as { action: string }).action });
      },
    });
    try {
      await call(w.admin, "PUT", `/tickets/${tk.id}`, { queueId: w.sales.id, userId: null, status: "pending" });
    } finally {
      t.app.charla.realtime.toUsers = toUsers;
    }
    const update = seen.find((e) => e.action === "update");
    const dropped = seen.find((e) => e.action === "delete");
    expect(update?.userIds).toEqual(expect.arrayContaining([w.ana.id, w.company.admin.id]));
    expect(update?.userIds).not.toContain(w.beto.id);
    expect(update?.userIds).not.toContain(w.carla.id);
    expect(dropped?.userIds).toEqual([w.beto.id]);

    const foreign = await buildCompany(t.app);
    const foreignQueue = await buildQueue(t.app, foreign.id);
    expectError(await call(w.admin, "PUT", `/tickets/${tk.id}`, { queueId: foreignQueue.id }), 404, "ERR_NO_QUEUE_FOUND");
    expectError(
      await call(w.admin, "PUT", `/tickets/${tk.id}`, { queueId: w.sales.id, userId: foreign.admin.id }),
      404,
      "ERR_NO_USER_FOUND",
    );
  });

  it("sends the accept message when sendGreetingAccepted is enabled", async () => {
    const w = await world();
    await t.app.charla.db
      .update(settings)
      .set({ value: "enabled" })
      .where(and(eq(settings.companyId, w.companyId), eq(settings.key, "sendGreetingAccepted")));
    const tk = await w.ticket({ queueId: w.sales.id });
    await call(w.as.ana, "PUT", `/tickets/${tk.id}`, { status: "open", userId: w.ana.id });
    const sent = await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, tk.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ fromMe: true, isAutomatic: true });
    expect(sent[0].body).toContain("*Ana*");
  });
});

describe("#tickets conflicts (review findings)", () => {
  it("answers 409 naming the live ticket when a reopen would make a second one", async () => {
    const w = await world();
    const old = await w.ticket({ status: "closed", queueId: w.sales.id });
    const live = await w.ticket({ status: "pending", queueId: w.sales.id });
    const res = await call(w.admin, "PUT", `/tickets/${old.id}`, { status: "open", userId: w.company.admin.id });
    expectError(res, 409, "ERR_OTHER_OPEN_TICKET");
    expect(res.json().data).toMatchObject({ ticketId: live.id });
    // and the transaction is intact: the next request works
    expect((await call(w.admin, "GET", `/tickets/${old.id}`)).json()).toMatchObject({ status: "closed" });
  });

  it("refuses a change made from a stale screen (expectedStatus) and leaves a no-op alone", async () => {
    const w = await world();
    const tk = await w.ticket({ status: "closed", queueId: w.sales.id });
    expectError(
      await call(w.as.ana, "PUT", `/tickets/${tk.id}`, { status: "open", userId: w.ana.id, expectedStatus: "pending" }),
      409,
      "ERR_TICKET_STATUS_CHANGED",
    );
    const before = (await call(w.admin, "GET", `/tickets/${tk.id}`)).json();
    const same = await call(w.admin, "PUT", `/tickets/${tk.id}`, {});
    expect(same.json().updatedAt).toBe(before.updatedAt);
  });
});

describe("#tickets create and delete", () => {
  it("opens a ticket for the caller; a second one for the contact names the owner", async () => {
    const w = await world();
    expectError(await call(w.as.ana, "POST", "/tickets", { contactId: w.contact.id }), 400, "ERR_VALIDATION");
    const noQueue = await call(w.admin, "POST", "/tickets", { contactId: w.contact.id });
    expect(noQueue.statusCode).toBe(201);
    expect(noQueue.json()).toMatchObject({
      status: "open",
      userId: w.company.admin.id,
      whatsappId: w.connection.id,
      queueId: null,
    });

    // Ana may not see the admin's open ticket: she learns that one exists, not which or whose
    const again = await call(w.as.ana, "POST", "/tickets", { contactId: w.contact.id, queueId: w.sales.id });
    expectError(again, 409, "ERR_OTHER_OPEN_TICKET");
    expect(again.json().data).toBeUndefined();
    const subadmin = await login(t.app, await buildUser(t.app, w.companyId, { profile: "subadmin" }));
    const named = await call(subadmin, "POST", "/tickets", { contactId: w.contact.id, queueId: w.sales.id });
    expectError(named, 409, "ERR_OTHER_OPEN_TICKET");
    expect(named.json().data).toMatchObject({
      ticketId: noQueue.json().id,
      userId: w.company.admin.id,
      userName: w.company.admin.name,
    });

    const foreign = await buildCompany(t.app);
    const foreignContact = await buildContact(t.app, foreign.id);
    expectError(await call(w.admin, "POST", "/tickets", { contactId: foreignContact.id }), 404, "ERR_NO_CONTACT_FOUND");

    const deleted = await call(w.admin, "DELETE", `/tickets/${noQueue.json().id}`);
    expect(deleted.statusCode).toBe(204);
    expectError(await call(w.admin, "GET", `/tickets/${noQueue.json().id}`), 404, "ERR_NO_TICKET_FOUND");
  });
});
