import { BOT_HOLD_MS, Events } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages, tickets, whatsappQueues } from "../../db/schema/index.js";
import { botOf, phone } from "../../test/chatbot-kit.js";
import { buildContact, buildTicket, buildWhatsapp, type Session } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { listeningTestApp } from "../../test/sockets.js";

/**
 * Issue 26: a ticket still at the chatbot's area choice (no queue yet, chatbot = true) is shown to
 * the agents of the areas its connection serves, read-only while the bot holds it; the normal rule
 * (core §6) applies again once the contact picked an area.
 */
const t = listeningTestApp();

const call = caller(() => t.app);
const db = () => t.app.charla.db;

/**
 * The connection offers Ventas (1) and Soporte (2): Ana serves Ventas, Beto Soporte. Dora serves the
 * area of the company's other connection; Eva has no area; a stranger belongs to another company.
 */
async function world() {
  const w = await scenario(t.app, {
    connection: { isDefault: false, greetingMessage: "Hola, elige un área:" },
    queues: {
      sales: { name: "Ventas", orderQueue: 1, offered: true },
      support: { name: "Soporte", orderQueue: 2, offered: true },
      elsewhere: { name: "Otra" },
    },
    agents: {
      ana: { name: "Ana", queues: ["sales"] },
      beto: { name: "Beto", queues: ["support"] },
      dora: { name: "Dora", queues: ["elsewhere"] },
      eva: { name: "Eva" },
    },
  });
  const otherConnection = await buildWhatsapp(t.app, w.companyId, { provider: "simulator", status: "CONNECTED" });
  await db().insert(whatsappQueues).values({ companyId: w.companyId, whatsappId: otherConnection.id, queueId: w.elsewhere.id });
  const foreign = await scenario(t.app, { connection: false });
  return { ...w, bot: botOf(w), stranger: foreign.admin };
}

type World = Awaited<ReturnType<typeof world>>;

/** A contact writes: the bot answers with the list of areas and holds the queue-less ticket. */
async function atAreaChoice(w: World, text = "Hola, pregunto por un reembolso") {
  const lucia = phone(t, w.bot, "Lucía Cliente");
  const ticketId = await lucia.say(text);
  const row = await lucia.ticket();
  expect(row).toMatchObject({ id: ticketId, queueId: null, chatbot: true, status: "pending", userId: null });
  return { lucia, ticketId, row };
}

type Page = { tickets: { id: number; chatbot: boolean }[]; count: number };

async function listed(s: Session, query: string): Promise<Page> {
  const res = await call(s, "GET", `/tickets?${query}`);
  expect(res.statusCode).toBe(200);
  const page = res.json() as Page;
  // the badge (counters plus the bot's tickets apart) agrees with the rows (all on one page here)
  if (!query.includes("searchParam")) expect(page.count, query).toBe(page.tickets.length);
  return page;
}
const ids = (p: Page) => p.tickets.map((x) => x.id);

type Heard = { event: string; payload: { action?: string; ticketId?: number; ticket?: { id: number; queueId: number | null } } };

/** Every ticket and message event a user's socket receives from now on. */
async function listen(s: Session, companyId: number) {
  const socket = await t.open(s);
  const heard: Heard[] = [];
  for (const event of [Events.ticket(companyId), Events.appMessage(companyId)]) {
    socket.on(event, (payload: Heard["payload"]) => heard.push({ event, payload }));
  }
  const about = (ticketId: number) => heard.filter((h) => (h.payload.ticket?.id ?? h.payload.ticketId) === ticketId);
  return { heard, about };
}

describe("#tickets the chatbot's tickets at the area choice (issue 26)", () => {
  it("are shown to the agents of the connection's areas by id, in the list and in search; not to other areas or companies", async () => {
    const w = await world();
    // a pending ticket of Ana's area besides, so the badge adds the counters and the bot's tickets
    const waiting = await buildTicket(t.app, w.companyId, {
      contactId: (await buildContact(t.app, w.companyId)).id,
      whatsappId: w.connection.id,
      queueId: w.sales.id,
    });
    const { ticketId, row } = await atAreaChoice(w);

    for (const s of [w.as.ana, w.as.beto, w.admin]) {
      const byId = await call(s, "GET", `/tickets/${ticketId}`);
      expect(byId.statusCode).toBe(200);
      expect(byId.json()).toMatchObject({ id: ticketId, chatbot: true, queueId: null, status: "pending" });
      expect((await call(s, "GET", `/tickets/u/${row.uuid}`)).statusCode).toBe(200);
      const history = await call(s, "GET", `/messages/${ticketId}?peek=true`);
      expect(history.json().messages.map((m: { body: string }) => m.body)).toEqual([
        "Hola, pregunto por un reembolso",
        expect.stringContaining("*[ 1 ]* - Ventas"),
      ]);
      expect((await call(s, "GET", `/ticket-notes/list?ticketId=${ticketId}&contactId=${row.contactId}`)).statusCode).toBe(200);
    }
    expect(ids(await listed(w.as.ana, "status=pending"))).toEqual([ticketId, waiting.id]);
    expect(ids(await listed(w.as.beto, "status=pending"))).toEqual([ticketId]);
    expect(ids(await listed(w.as.ana, "status=pending&queueIds=[999]"))).toEqual([ticketId]);
    expect(ids(await listed(w.as.ana, "searchParam=reembolso"))).toEqual([ticketId]);
    const found = await call(w.as.ana, "GET", "/search?q=reembolso");
    expect(found.json().results.map((r: { ticket: { id: number } | null }) => r.ticket?.id)).toContain(ticketId);

    // an area of another connection, no area at all, another company: not found, not listed
    for (const s of [w.as.dora, w.as.eva, w.stranger]) {
      expectError(await call(s, "GET", `/tickets/${ticketId}`), 404, "ERR_NO_TICKET_FOUND");
      expectError(await call(s, "GET", `/tickets/u/${row.uuid}`), 404, "ERR_NO_TICKET_FOUND");
      expectError(await call(s, "GET", `/messages/${ticketId}?peek=true`), 404, "ERR_NO_TICKET_FOUND");
      expectError(await call(s, "PUT", `/tickets/${ticketId}`, { status: "open" }), 404, "ERR_NO_TICKET_FOUND");
    }
    for (const s of [w.as.dora, w.as.eva]) {
      expect(ids(await listed(s, "status=pending"))).toEqual([]);
      expect(ids(await listed(s, "searchParam=reembolso"))).toEqual([]);
      const none = await call(s, "GET", "/search?q=reembolso");
      expect(none.json().results.map((r: { ticket: { id: number } | null }) => r.ticket?.id)).not.toContain(ticketId);
    }

    // the bot let go without an area (maxUseBotQueues): the normal rule again, queue-less tickets are allTicket's
    await db().update(tickets).set({ chatbot: false }).where(eq(tickets.id, ticketId));
    expectError(await call(w.as.ana, "GET", `/tickets/${ticketId}`), 404, "ERR_NO_TICKET_FOUND");
    expect(ids(await listed(w.as.ana, "status=pending"))).toEqual([waiting.id]);
  });

  it("sends its live events to the connection's areas while the bot holds it, and drops it from the other areas once an area is chosen", async () => {
    const w = await world();
    const [ana, beto, dora] = await Promise.all([w.as.ana, w.as.beto, w.as.dora].map((s) => listen(s, w.companyId)));
    const { lucia, ticketId } = await atAreaChoice(w);

    // the bot took it (update) and sent its list (a message): both areas hear it, the other connection's does not
    for (const agent of [ana, beto]) {
      await expect
        .poll(() => agent.about(ticketId).map((h) => `${h.event === Events.ticket(w.companyId) ? "ticket" : "message"}`))
        .toEqual(expect.arrayContaining(["ticket", "message"]));
    }
    // the contact's next message reaches them from the inbound path too; polled for the message itself:
    // its ticket update comes first on the wire, so the first new event may not be it
    await lucia.say("no entiendo");
    await expect
      .poll(() =>
        ana.heard.some((h) => h.event === Events.appMessage(w.companyId) && JSON.stringify(h.payload).includes("no entiendo")),
      )
      .toBe(true);

    // Ventas chosen: the bot hands over (no options), Ana's area keeps it, Beto's list drops it
    await lucia.say("1");
    expect(await lucia.ticket()).toMatchObject({ queueId: w.sales.id, chatbot: false });
    await expect
      .poll(() => ana.about(ticketId).some((h) => h.payload.action === "update" && h.payload.ticket?.queueId === w.sales.id))
      .toBe(true);
    await expect.poll(() => beto.about(ticketId).some((h) => h.payload.action === "delete")).toBe(true);
    expect(beto.about(ticketId).some((h) => h.payload.ticket?.queueId === w.sales.id)).toBe(false);
    expectError(await call(w.as.beto, "GET", `/tickets/${ticketId}`), 404, "ERR_NO_TICKET_FOUND");
    expect((await call(w.as.ana, "GET", `/tickets/${ticketId}`)).statusCode).toBe(200);
    expect(dora.about(ticketId)).toEqual([]);
  });

  it("is read-only to agents while the bot holds it: no accept, answer, transfer or resolve; staff may take over", async () => {
    const w = await world();
    const { ticketId } = await atAreaChoice(w);
    const put = (s: Session, body: object) => call(s, "PUT", `/tickets/${ticketId}`, body);
    expectError(
      await put(w.as.ana, { status: "open", userId: w.ana.id, expectedStatus: "pending" }),
      409,
      "ERR_TICKET_IN_CHATBOT",
    );
    expectError(await put(w.as.ana, { status: "closed" }), 409, "ERR_TICKET_IN_CHATBOT");
    expectError(await put(w.as.ana, { queueId: w.sales.id }), 409, "ERR_TICKET_IN_CHATBOT");
    expectError(await call(w.as.ana, "POST", `/messages/${ticketId}`, { body: "hola" }), 409, "ERR_TICKET_IN_CHATBOT");
    expectError(await call(w.as.ana, "POST", `/messages/${ticketId}/typing`, { typing: true }), 409, "ERR_TICKET_IN_CHATBOT");
    const [kept] = await db().select().from(tickets).where(eq(tickets.id, ticketId));
    expect(kept).toMatchObject({ status: "pending", userId: null, chatbot: true, queueId: null });
    const ours = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, true), eq(messages.isAutomatic, false)));
    expect(ours).toEqual([]);

    // staff take over as before: accepting stops the bot
    const taken = await put(w.admin, { status: "open", userId: w.company.admin.id });
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toMatchObject({ status: "open", chatbot: false, userId: w.company.admin.id });
  });

  it("holds a ticket inside an area's option tree too, and lets the agents take it once the contact stopped answering the bot", async () => {
    const w = await world();
    const contact = await buildContact(t.app, w.companyId);
    const inTree = await buildTicket(t.app, w.companyId, {
      contactId: contact.id,
      whatsappId: w.connection.id,
      queueId: w.sales.id,
      chatbot: true,
    });
    const accept = { status: "open", userId: w.ana.id };
    expectError(await call(w.as.ana, "PUT", `/tickets/${inTree.id}`, accept), 409, "ERR_TICKET_IN_CHATBOT");

    // nothing clears the flag of a conversation the contact left in the bot: past the hold it is the agents'
    await db()
      .update(tickets)
      .set({ updatedAt: new Date(Date.now() - BOT_HOLD_MS - 60_000) })
      .where(eq(tickets.id, inTree.id));
    const taken = await call(w.as.ana, "PUT", `/tickets/${inTree.id}`, accept);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toMatchObject({ status: "open", userId: w.ana.id, chatbot: false });

    // the same for one left at the area choice: the connection's areas' agents may take it
    const { ticketId } = await atAreaChoice(w);
    await db()
      .update(tickets)
      .set({ updatedAt: new Date(Date.now() - BOT_HOLD_MS - 60_000) })
      .where(eq(tickets.id, ticketId));
    const late = await call(w.as.beto, "PUT", `/tickets/${ticketId}`, { status: "open", userId: w.beto.id });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ status: "open", userId: w.beto.id, chatbot: false, queueId: null });
    expect((await call(w.as.beto, "POST", `/messages/${ticketId}`, { body: "Te atiendo yo" })).statusCode).toBe(201);
  });
});
