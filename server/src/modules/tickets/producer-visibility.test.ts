import type { KanbanPage, TicketsPage } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schedules } from "../../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import { type FakeOpenAi, startFakeOpenAi } from "../../test/fake-openai.js";
import { addUserQueue, buildContact, buildUser, buildWhatsapp, login, type Session } from "../../test/factories.js";
import { uid } from "../../test/http.js";
import { type LifecycleWorld, lifecycleWorld } from "../../test/lifecycle-kit.js";
import { sendDueSchedules } from "../schedules/sender.js";

/**
 * Core §6 holds for every producer (issue 40 point 4): whatever made or reopened a ticket, each user sees
 * it in the list, its count, the search and the kanban exactly when a read by id lets them — and who
 * that is depends on the ticket's place (area, holder, the bot), never on who put it there.
 */
const KEY = "sk-visibility-0123456789abcdef";
let t: TestApp;
let ai: FakeOpenAi;
beforeAll(async () => {
  ai = await startFakeOpenAi({ key: KEY });
  t = await getIsolatedTestApp({ integrationsAllowPrivate: true });
});
afterAll(async () => {
  await t.close();
  await ai.close();
});

type Who = "carla" | "pedro" | "lucia" | "sara";

/** The matrix's world plus Sara: an agent of Ventas allowed to see tickets without area (allTicket). */
async function world() {
  const m = await lifecycleWorld(t);
  const user = await buildUser(t.app, m.w.companyId, { name: "Sara", allTicket: "enable" });
  await addUserQueue(t.app, m.w.companyId, user.id, m.w.ventas.id);
  const sara = { id: user.id, session: await login(t.app, user) };
  const people: Record<Who, { id: number; session: Session }> = { carla: m.carla, pedro: m.pedro, lucia: m.lucia, sara };
  return { m, people };
}

/** Where a user finds the ticket: by id, in its status's list (and that list's count), in a search, on the board. */
async function surfaces(m: LifecycleWorld, session: Session, ticket: { id: number; status: string }) {
  const get = async <T>(url: string) => (await m.call(session, "GET", url)).json() as T;
  const byId = (await m.call(session, "GET", `/tickets/${ticket.id}`)).statusCode === 200;
  const list = await get<TicketsPage>(`/tickets?status=${ticket.status}&showAll=true`);
  const search = await get<TicketsPage>(`/tickets?searchParam=${encodeURIComponent("María")}&showAll=true`);
  const board = await get<KanbanPage>("/ticket/kanban");
  const ids = (page: { tickets: { id: number }[] }) => page.tickets.map((x) => x.id);
  return {
    byId,
    listed: ids(list).includes(ticket.id),
    // only María's tickets exist in this company: the count is what the list holds
    countAgrees: list.count === list.tickets.length,
    searched: ids(search).includes(ticket.id),
    onBoard: ids(board).includes(ticket.id),
  };
}

async function expectSeen(m: LifecycleWorld, people: Record<Who, { session: Session }>, expected: Record<Who, boolean>) {
  const ticket = await m.ticket();
  if (!ticket) throw new Error("no ticket");
  for (const [who, person] of Object.entries(people) as [Who, { session: Session }][]) {
    const s = await surfaces(m, person.session, ticket);
    expect({ who, byId: s.byId }).toEqual({ who, byId: expected[who] });
    // the list, its count and the search agree with the read by id; the board shows no more than it
    expect({ who, listed: s.listed, searched: s.searched, countAgrees: s.countAgrees }).toEqual({
      who,
      listed: s.byId,
      searched: s.byId,
      countAgrees: true,
    });
    if (s.onBoard) expect({ who, onBoard: s.byId }).toEqual({ who, onBoard: true });
  }
}

async function apiSend(m: LifecycleWorld, whatsappId: number) {
  // a customer the company knows by name (the search looks for it)
  await buildContact(t.app, m.w.companyId, { name: "María", number: m.maria.number });
  const token = (await m.call(m.carla.session, "GET", `/whatsapp/${whatsappId}/api-token`)).json().apiToken;
  const res = await t.app.inject({
    method: "POST",
    url: "/api/messages/send",
    headers: { authorization: `Bearer ${token}` },
    payload: { number: m.maria.number, body: "Su pedido salió" },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe("core §6 for every producer: list, count, search, kanban and by id agree", () => {
  it("a customer's ticket at the bot's area choice: staff, the areas' agents (read-only) and allTicket", async () => {
    const { m, people } = await world();
    await m.states.bot();
    await expectSeen(m, people, { carla: true, pedro: true, lucia: true, sara: true });
  });

  it("a schedule's ticket (Carla's, open, no area): only Carla", async () => {
    const { m, people } = await world();
    const contact = await buildContact(t.app, m.w.companyId, { name: "María", number: m.maria.number });
    await m.db.insert(schedules).values({
      companyId: m.w.companyId,
      contactId: contact.id,
      body: "Recordatorio",
      sendAt: new Date(Date.now() - 1000),
      userId: m.carla.id,
    });
    await sendDueSchedules(t.app.charla, new Date(), 50);
    expect(await m.ticket()).toMatchObject({ status: "open", userId: m.carla.id });
    await expectSeen(m, people, { carla: true, pedro: false, lucia: false, sara: false });
  });

  it("the external API's ticket, pending in Soporte: staff and Soporte's agent", async () => {
    const { m, people } = await world();
    await apiSend(m, m.w.connection.id);
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: m.w.soporte.id });
    await expectSeen(m, people, { carla: true, pedro: true, lucia: false, sara: false });
  });

  it("the external API's ticket on a connection without areas: staff and allTicket only, never the bot's watchers", async () => {
    const { m, people } = await world();
    const bare = await buildWhatsapp(t.app, m.w.companyId, {
      provider: "simulator",
      status: "CONNECTED",
      name: `Sin áreas ${uid()}`,
    });
    await apiSend(m, bare.id);
    const [ticket] = await m.maria.tickets();
    expect(ticket).toMatchObject({ status: "pending", queueId: null, whatsappId: bare.id, startedByCompany: true });
    await expectSeen(m, people, { carla: true, pedro: false, lucia: false, sara: true });
  });

  it("a ticket an AI prompt holds (no area, not the bot's menu): staff and allTicket only", async () => {
    const { m, people } = await world();
    ai.answer({ reply: "Hola, soy el asistente" });
    await m.promptOnConnection({ baseUrl: ai.baseUrl, key: KEY });
    await m.maria.say("hola");
    expect(await m.ticket()).toMatchObject({ status: "pending", queueId: null, useIntegration: true });
    await expectSeen(m, people, { carla: true, pedro: false, lucia: false, sara: true });
  });

  it("a customer's ticket reopened minutes after it was resolved: back at the area choice, as a new conversation", async () => {
    const { m, people } = await world();
    const before = await m.states.resolvedMinutesAgo();
    await m.maria.say("una pregunta más");
    expect(await m.ticket()).toMatchObject({ id: before?.id, status: "pending", queueId: null, chatbot: true });
    await expectSeen(m, people, { carla: true, pedro: true, lucia: true, sara: true });
  });
});
