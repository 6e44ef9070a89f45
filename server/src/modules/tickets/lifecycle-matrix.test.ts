import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schedules, whatsapps } from "../../db/schema/index.js";
import { expireInactiveTickets } from "../../jobs/ticket-expiry.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { buildContact } from "../../test/factories.js";
import { type LifecycleWorld, lifecycleWorld } from "../../test/lifecycle-kit.js";
import { sendDueSchedules } from "../schedules/sender.js";

/**
 * The interaction matrix of docs/ticket-lifecycle.md, one test per cell: each producer acting on María's
 * ticket in each state — what happens to the ticket, which automatic messages go, who sees it and which
 * socket events each user gets. (AI, typebot, campaign and Cloud API rows: lifecycle-matrix-automation.test.ts.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

/** María's contact, made as a user would before writing to her (a producer acting on "none"). */
async function mariaContact(m: LifecycleWorld) {
  const existing = await m.maria.contactId();
  if (existing > 0) return existing;
  return (await buildContact(t.app, m.w.companyId, { name: "María", number: m.maria.number })).id;
}

const automaticAfter = (m: LifecycleWorld, lastId: number) => m.automaticAfter(lastId);

describe("agent reply (Pedro, in the chat)", () => {
  const answer = (m: LifecycleWorld, ticketId: number) =>
    m.call(m.pedro.session, "POST", `/messages/${ticketId}`, { body: "Te ayudo con eso" });

  it("none: there is no ticket to answer; Pedro opens one: open, his, in Soporte, no automatic message", async () => {
    const m = await lifecycleWorld(t);
    const contactId = await mariaContact(m);
    const ev = m.watch();
    const res = await m.call(m.pedro.session, "POST", "/tickets", { contactId, queueId: m.w.soporte.id, status: "open" });
    ev.stop();
    expect(res.statusCode, res.body).toBe(201);
    expect(await m.ticket()).toMatchObject({ status: "open", userId: m.pedro.id, queueId: m.w.soporte.id });
    expect(await automaticAfter(m, 0)).toEqual([]);
    expect(await m.seenBy(res.json().id)).toEqual({ carla: true, pedro: true, lucia: false });
    expect(ev.to(m.pedro.id)).toEqual(["ticket:update"]);
    expect(ev.to(m.carla.id)).toEqual(["ticket:update"]);
    expect(ev.to(m.lucia.id)).toEqual([]);
  });

  it("bot: refused while the bot holds the ticket (ERR_TICKET_IN_CHATBOT); nothing changes, no event", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.bot();
    const last = await m.lastMessageId();
    const ev = m.watch();
    const res = await answer(m, before?.id as number);
    ev.stop();
    expect(res.json().error).toBe("ERR_TICKET_IN_CHATBOT");
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: null, userId: null, chatbot: true });
    expect(await m.messagesAfter(last)).toEqual([]);
    expect([...ev.to(m.carla.id), ...ev.to(m.pedro.id)]).toEqual([]);
  });

  it("open: sent; the ticket stays open and Pedro's, no automatic message; the message to Carla and Pedro", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.open();
    const last = await m.lastMessageId();
    const ev = m.watch();
    const res = await answer(m, before?.id as number);
    ev.stop();
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "open", userId: m.pedro.id });
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(ev.to(m.pedro.id)).toContain("appMessage:create");
    expect(ev.to(m.carla.id)).toContain("appMessage:create");
    expect(ev.to(m.lucia.id)).toEqual([]);
  });

  for (const state of ["resolvedMinutesAgo", "resolvedDaysAgo"] as const) {
    it(`${state}: refused (ERR_TICKET_NOT_OPEN: reopen first); nothing changes`, async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states[state]();
      const last = await m.lastMessageId();
      const res = await answer(m, before?.id as number);
      expect(res.json().error).toBe("ERR_TICKET_NOT_OPEN");
      expect(await m.ticket()).toMatchObject({ id: before?.id, status: "closed" });
      expect(await m.messagesAfter(last)).toEqual([]);
    });
  }
});

describe("schedule (by Carla)", () => {
  /** Carla's reminder to María, due now, sent by the schedules' sweep. */
  async function remind(m: LifecycleWorld) {
    const contactId = await mariaContact(m);
    const [row] = await m.db
      .insert(schedules)
      .values({
        companyId: m.w.companyId,
        contactId,
        body: "Recordatorio: su cita es mañana",
        sendAt: new Date(Date.now() - 1000),
        userId: m.carla.id,
        timezone: "America/Noronha",
      })
      .returning();
    const last = await m.lastMessageId();
    const ev = m.watch();
    await sendDueSchedules(t.app.charla, new Date(), 50);
    ev.stop();
    const [done] = await m.db.select().from(schedules).where(eq(schedules.id, row.id));
    expect(done).toMatchObject({ status: "ENVIADA" });
    return { ev, last };
  }

  /** María answers the reminder: no greeting, no menu, nothing automatic. */
  async function answersWithoutBot(m: LifecycleWorld) {
    const last = await m.lastMessageId();
    await m.maria.say("gracias, ahí estaré");
    expect(await automaticAfter(m, last)).toEqual([]);
  }

  it("none: a new ticket, open and Carla's, the company's; no greeting; only Carla sees it", async () => {
    const m = await lifecycleWorld(t);
    const { ev, last } = await remind(m);
    const after = await m.ticket();
    expect(after).toMatchObject({ status: "open", userId: m.carla.id, queueId: null, startedByCompany: true });
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.seenBy(after?.id as number)).toEqual({ carla: true, pedro: false, lucia: false });
    expect(ev.to(m.carla.id)).toEqual(expect.arrayContaining(["ticket:update", "appMessage:create"]));
    expect([...ev.to(m.pedro.id), ...ev.to(m.lucia.id)]).toEqual([]);
    await answersWithoutBot(m);
  });

  it("bot: Carla takes the ticket (open, hers), the bot stops; no accept message; the watching agents drop it", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.bot();
    expect(await m.seenBy(before?.id as number)).toEqual({ carla: true, pedro: true, lucia: true });
    const { ev, last } = await remind(m);
    const after = await m.ticket();
    expect(after).toMatchObject({ id: before?.id, status: "open", userId: m.carla.id, chatbot: false, startedByCompany: true });
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.seenBy(after?.id as number)).toEqual({ carla: true, pedro: false, lucia: false });
    expect(ev.to(m.pedro.id)).toEqual(["ticket:delete"]);
    expect(ev.to(m.lucia.id)).toEqual(["ticket:delete"]);
    await answersWithoutBot(m);
  });

  it("open: the ticket stays Pedro's; the reminder is in his chat", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.open();
    const { ev, last } = await remind(m);
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "open", userId: m.pedro.id });
    const written = await m.messagesAfter(last);
    expect(written.map((r) => [r.body, r.fromMe, r.isAutomatic])).toEqual([["Recordatorio: su cita es mañana", true, false]]);
    expect(ev.to(m.pedro.id)).toContain("appMessage:create");
    expect(ev.to(m.lucia.id)).toEqual([]);
  });

  it("resolved minutes ago: reopened open for Carla, its area kept, a new episode; no completion, rating or greeting", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.resolvedMinutesAgo();
    const { ev, last } = await remind(m);
    const after = await m.ticket();
    expect(after).toMatchObject({
      id: before?.id,
      status: "open",
      userId: m.carla.id,
      queueId: m.w.soporte.id,
      startedByCompany: true,
      awaitingRating: false,
    });
    expect(await automaticAfter(m, last)).toEqual([]);
    // Pedro saw it resolved in his area; it is Carla's conversation now
    expect(ev.to(m.pedro.id)).toEqual(["ticket:delete"]);
    await answersWithoutBot(m);
  });

  it("resolved days ago: a new ticket, open and Carla's; the old one stays resolved", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.resolvedDaysAgo();
    const { last } = await remind(m);
    const all = await m.maria.tickets();
    expect(all.find((x) => x.id === before?.id)).toMatchObject({ status: "closed" });
    expect(all.at(-1)).toMatchObject({ status: "open", userId: m.carla.id, startedByCompany: true });
    expect(all.at(-1)?.id).not.toBe(before?.id);
    expect(await automaticAfter(m, last)).toEqual([]);
    await answersWithoutBot(m);
  });
});

describe("external API send (the connection's token)", () => {
  async function send(m: LifecycleWorld, body: Record<string, unknown> = {}) {
    await mariaContact(m);
    const token = (await m.call(m.carla.session, "GET", `/whatsapp/${m.w.connection.id}/api-token`)).json().apiToken;
    const last = await m.lastMessageId();
    const ev = m.watch();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/messages/send",
      headers: { authorization: `Bearer ${token}` },
      payload: { number: m.maria.number, body: "Su pedido salió hoy", ...body },
    });
    ev.stop();
    expect(res.statusCode, res.body).toBe(200);
    return { ev, last, uuid: res.json().ticket_uuid as string };
  }

  /** María answers the API's message: it waits in Soporte for its people; no greeting, no menu. */
  async function answerWaitsInSoporte(m: LifecycleWorld) {
    const last = await m.lastMessageId();
    await m.maria.say("¿a qué hora llega?");
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: m.w.soporte.id, userId: null, chatbot: false });
  }

  it("none: a new ticket pending in Soporte (the connection's first area), the company's; Pedro sees it, Lucía does not", async () => {
    const m = await lifecycleWorld(t);
    const { ev, last, uuid } = await send(m);
    const after = await m.ticket();
    expect(after).toMatchObject({ uuid, status: "pending", queueId: m.w.soporte.id, userId: null, startedByCompany: true });
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.seenBy(after?.id as number)).toEqual({ carla: true, pedro: true, lucia: false });
    expect(ev.to(m.pedro.id)).toEqual(expect.arrayContaining(["ticket:update", "appMessage:create"]));
    expect(ev.to(m.lucia.id)).toEqual([]);
    await answerWaitsInSoporte(m);
  });

  it("bot: the bot stops, the ticket waits in Soporte; Lucía, who watched the bot, drops it", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.bot();
    const { ev, last } = await send(m);
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "pending", queueId: m.w.soporte.id, chatbot: false });
    expect(await automaticAfter(m, last)).toEqual([]);
    expect(await m.seenBy(before?.id as number)).toEqual({ carla: true, pedro: true, lucia: false });
    expect(ev.to(m.lucia.id)).toEqual(["ticket:delete"]);
    await answerWaitsInSoporte(m);
  });

  it("open: the ticket stays Pedro's; the message carries no user", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.open();
    const { ev, last } = await send(m);
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "open", userId: m.pedro.id, startedByCompany: false });
    const written = await m.messagesAfter(last);
    expect(written.map((r) => [r.body, r.userId, r.isAutomatic])).toEqual([["Su pedido salió hoy", null, false]]);
    expect(ev.to(m.pedro.id)).toContain("appMessage:create");
  });

  it("resolved minutes ago: reopened pending in Soporte with a new episode, never Pendientes without area", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.resolvedMinutesAgo();
    const { last } = await send(m);
    expect(await m.ticket()).toMatchObject({
      id: before?.id,
      status: "pending",
      queueId: m.w.soporte.id,
      startedByCompany: true,
    });
    expect(await automaticAfter(m, last)).toEqual([]);
    await answerWaitsInSoporte(m);
  });

  it("resolved minutes ago, closeTicket: the message goes on the resolved ticket, which stays resolved", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.resolvedMinutesAgo();
    const { last } = await send(m, { closeTicket: true });
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "closed" });
    const written = await m.messagesAfter(last);
    expect(written.map((r) => [r.ticketId, r.body])).toEqual([[before?.id, "Su pedido salió hoy"]]);
  });

  it("resolved days ago: a new ticket pending in Soporte; with closeTicket it is made and resolved at once", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.resolvedDaysAgo();
    await send(m, { closeTicket: true });
    const made = (await m.maria.tickets()).at(-1);
    expect(made?.id).not.toBe(before?.id);
    expect(made).toMatchObject({ status: "closed", queueId: m.w.soporte.id, startedByCompany: true });
    // the customer's answer within 2 hours reaches Soporte's people, not the bot
    await answerWaitsInSoporte(m);
  });
});

describe("automatic message (expiry: tickets silent 1 h after our last message close)", () => {
  async function expireNow(m: LifecycleWorld) {
    await m.db
      .update(whatsapps)
      .set({ expiresTicket: 1, expiresInactiveMessage: "Cerramos por inactividad" })
      .where(eq(whatsapps.id, m.w.connection.id));
    const last = await m.lastMessageId();
    const ev = m.watch();
    // an hour and a minute after our last message, as the sweep sees it
    await expireInactiveTickets(t.app.charla, new Date(Date.now() + 61 * 60_000), 100);
    ev.stop();
    return { ev, last };
  }

  it("open: closed with the expiry message, its episode finished; Carla and Pedro hear of it", async () => {
    const m = await lifecycleWorld(t);
    const before = await m.states.open();
    // our answer is the last message
    await m.call(m.pedro.session, "POST", `/messages/${before?.id}`, { body: "¿Algo más?" });
    const { ev, last } = await expireNow(m);
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "closed", userId: m.pedro.id });
    expect(await automaticAfter(m, last)).toEqual(["Cerramos por inactividad"]);
    expect(ev.to(m.pedro.id)).toContain("ticket:update");
    expect(ev.to(m.carla.id)).toContain("ticket:update");
  });

  for (const state of ["none", "bot", "resolvedMinutesAgo", "resolvedDaysAgo"] as const) {
    it(`${state}: nothing happens (only an open ticket expires)`, async () => {
      const m = await lifecycleWorld(t);
      const before = await m.states[state]();
      const { last } = await expireNow(m);
      expect(await m.ticket()).toMatchObject(before ? { id: before.id, status: before.status } : {});
      if (!before) expect(await m.ticket()).toBeNull();
      expect(await automaticAfter(m, last)).toEqual([]);
    });
  }
});
