import { Events, type KanbanLanes, type KanbanPage, PlanFlags } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketTags } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildQueue,
  buildTag,
  buildTicket,
  buildUser,
  login,
} from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);

const call = caller(() => t.app);
const board = (s: { token: string }, query = "") => call(s, "GET", `/ticket/kanban${query}`);

/** A company with two areas: the agent serves the first, the admin none, the supervisor both. */
async function company(plan: Record<string, boolean> = {}) {
  const c = await buildCompany(t.app, { plan });
  const sales = await buildQueue(t.app, c.id, { name: "Ventas" });
  const support = await buildQueue(t.app, c.id, { name: "Soporte" });
  const agentUser = await buildUser(t.app, c.id, { profile: "user", name: "Ana" });
  const colleague = await buildUser(t.app, c.id, { profile: "user", name: "Beto" });
  const supervisorUser = await buildUser(t.app, c.id, { profile: "supervisor" });
  await addUserQueue(t.app, c.id, agentUser.id, sales.id);
  await addUserQueue(t.app, c.id, colleague.id, sales.id);
  await addUserQueue(t.app, c.id, supervisorUser.id, sales.id);
  await addUserQueue(t.app, c.id, supervisorUser.id, support.id);
  const ticket = async (values: { queueId: number | null; status?: string; userId?: number; name?: string }) => {
    const contact = await buildContact(t.app, c.id, { name: values.name ?? "Cliente" });
    return buildTicket(t.app, c.id, {
      contactId: contact.id,
      queueId: values.queueId,
      status: values.status ?? "pending",
      userId: values.userId ?? null,
      lastMessage: `Hola de ${values.name ?? "Cliente"}`,
    });
  };
  return {
    c,
    sales,
    support,
    agentUser,
    colleague,
    ticket,
    admin: await login(t.app, c.admin),
    agent: await login(t.app, agentUser),
    supervisor: await login(t.app, supervisorUser),
  };
}

const ids = (page: KanbanPage) => page.tickets.map((ticket) => ticket.id).sort((x, y) => x - y);

describe("#kanban board", () => {
  it("lists the open and pending tickets of the user's own queues, for every profile, as cards", async () => {
    const w = await company();
    const waiting = await w.ticket({ queueId: w.sales.id, name: "Carla" });
    const mine = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.agentUser.id });
    const colleagues = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.colleague.id });
    await w.ticket({ queueId: w.sales.id, status: "closed" });
    const otherArea = await w.ticket({ queueId: w.support.id });
    const noArea = await w.ticket({ queueId: null });

    const agentBoard = (await board(w.agent)).json() as KanbanPage;
    // a colleague's open ticket stays theirs (core §6), as in the inbox
    expect(ids(agentBoard)).toEqual([waiting.id, mine.id]);
    const card = agentBoard.tickets.find((x) => x.id === waiting.id);
    expect(card).toEqual({
      id: waiting.id,
      uuid: waiting.uuid,
      status: "pending",
      tags: [],
      contact: { name: "Carla", number: expect.any(String) },
      lastMessage: "Hola de Carla",
      queue: { id: w.sales.id, name: "Ventas", color: w.sales.color },
      updatedAt: expect.any(String),
    });
    expect(agentBoard.hasMore).toBe(false);

    // staff see every area's tickets and those without one, as in the ticket list (core §6)
    const supervisorBoard = (await board(w.supervisor)).json() as KanbanPage;
    expect(ids(supervisorBoard)).toEqual([waiting.id, mine.id, colleagues.id, otherArea.id, noArea.id]);
    // queueIds narrows to the asked queues: for staff any of the company's, for an agent only within their own
    expect(ids((await board(w.supervisor, `?queueIds=${encodeURIComponent(`[${w.support.id}]`)}`)).json())).toEqual([
      otherArea.id,
    ]);
    expect(ids((await board(w.agent, `?queueIds=${encodeURIComponent(`[${w.support.id}]`)}`)).json())).toEqual([]);
    // issue 26: an admin with no areas of their own still sees the board, as in the ticket list
    expect(ids((await board(w.admin)).json())).toEqual([waiting.id, mine.id, colleagues.id, otherArea.id, noArea.id]);
    expect(ids((await board(w.admin, `?queueIds=${encodeURIComponent(`[${w.sales.id}]`)}`)).json())).toEqual([
      waiting.id,
      mine.id,
      colleagues.id,
    ]);
    expectError(await board(w.agent, "?queueIds=nope"), 400, "ERR_VALIDATION");
  });

  it("pages 100 cards a request, newest activity first", async () => {
    const w = await company();
    for (let i = 0; i < 101; i++) await w.ticket({ queueId: w.sales.id });
    const first = (await board(w.agent)).json() as KanbanPage;
    expect(first.tickets).toHaveLength(100);
    expect(first.hasMore).toBe(true);
    const stamps = first.tickets.map((x) => x.updatedAt);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const second = (await board(w.agent, "?pageNumber=2")).json() as KanbanPage;
    expect(second).toMatchObject({ hasMore: false });
    expect(second.tickets).toHaveLength(1);
    expect(first.tickets.some((x) => x.id === second.tickets[0].id)).toBe(false);
  });

  it("answers the lanes: the tags marked kanban, by name", async () => {
    const w = await company();
    await buildTag(t.app, w.c.id, { name: "Zeta", kanban: 1 });
    await buildTag(t.app, w.c.id, { name: "Alfa", kanban: 1 });
    await buildTag(t.app, w.c.id, { name: "VIP", kanban: 0 });
    const lanes = (await call(w.agent, "GET", "/tags/kanban")).json() as KanbanLanes;
    expect(lanes.lista.map((tag) => tag.name)).toEqual(["Alfa", "Zeta"]);
  });
});

describe("#kanban moves", () => {
  it("moving to a lane makes that lane's tag the ticket's only kanban tag and keeps its other tags", async () => {
    const w = await company();
    const todo = await buildTag(t.app, w.c.id, { name: "Por hacer", kanban: 1 });
    const done = await buildTag(t.app, w.c.id, { name: "Hecho", kanban: 1 });
    const vip = await buildTag(t.app, w.c.id, { name: "VIP", kanban: 0 });
    const ticket = await w.ticket({ queueId: w.sales.id });
    await t.app.charla.db.insert(ticketTags).values([
      { companyId: w.c.id, ticketId: ticket.id, tagId: todo.id },
      { companyId: w.c.id, ticketId: ticket.id, tagId: vip.id },
    ]);
    const capture = listen();
    const moved = await call(w.agent, "PUT", `/ticket-tags/${ticket.id}/${done.id}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().tags.map((tag: { name: string }) => tag.name)).toEqual(["Hecho", "VIP"]);
    // the inbox and every open board hear of it like any change of the ticket
    const events = capture.on(Events.ticket(w.c.id)) as { action: string; ticket?: { id: number; tags: unknown[] } }[];
    expect(events.some((e) => e.action === "update" && e.ticket?.id === ticket.id && e.ticket.tags.length === 2)).toBe(true);

    const back = await call(w.agent, "DELETE", `/ticket-tags/${ticket.id}`);
    expect(back.statusCode).toBe(200);
    expect(back.json().tags.map((tag: { name: string }) => tag.name)).toEqual(["VIP"]);
    const rows = await t.app.charla.db
      .select()
      .from(ticketTags)
      .where(and(eq(ticketTags.ticketId, ticket.id)));
    expect(rows.map((r) => r.tagId)).toEqual([vip.id]);
    // moving again to the same lane is harmless
    await call(w.agent, "PUT", `/ticket-tags/${ticket.id}/${done.id}`);
    const again = await call(w.agent, "PUT", `/ticket-tags/${ticket.id}/${done.id}`);
    expect(again.json().tags.map((tag: { name: string }) => tag.name)).toEqual(["Hecho", "VIP"]);
  });

  it("refuses a tag that is no lane, and tickets that are not on the user's board", async () => {
    const w = await company();
    const lane = await buildTag(t.app, w.c.id, { name: "Seguimiento", kanban: 1 });
    const label = await buildTag(t.app, w.c.id, { name: "VIP", kanban: 0 });
    const ticket = await w.ticket({ queueId: w.sales.id });
    expectError(await call(w.agent, "PUT", `/ticket-tags/${ticket.id}/${label.id}`), 404, "ERR_NO_TAG_FOUND");
    expectError(await call(w.agent, "PUT", `/ticket-tags/${ticket.id}/999999999`), 404, "ERR_NO_TAG_FOUND");
    const otherArea = await w.ticket({ queueId: w.support.id });
    expectError(await call(w.agent, "PUT", `/ticket-tags/${otherArea.id}/${lane.id}`), 404, "ERR_NO_TICKET_FOUND");
    const closed = await w.ticket({ queueId: w.sales.id, status: "closed" });
    expectError(await call(w.agent, "DELETE", `/ticket-tags/${closed.id}`), 404, "ERR_NO_TICKET_FOUND");
    const colleagues = await w.ticket({ queueId: w.sales.id, status: "open", userId: w.colleague.id });
    expectError(await call(w.agent, "PUT", `/ticket-tags/${colleagues.id}/${lane.id}`), 404, "ERR_NO_TICKET_FOUND");
    // nothing was written by the refusals
    expect(await t.app.charla.db.select().from(ticketTags).where(eq(ticketTags.companyId, w.c.id))).toEqual([]);
  });

  it("lets an admin without areas move any ticket of the board (issue 26)", async () => {
    const w = await company();
    const lane = await buildTag(t.app, w.c.id, { name: "Seguimiento", kanban: 1 });
    const ticket = await w.ticket({ queueId: w.support.id });
    const moved = await call(w.admin, "PUT", `/ticket-tags/${ticket.id}/${lane.id}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().tags.map((tag: { name: string }) => tag.name)).toEqual(["Seguimiento"]);
    const closed = await w.ticket({ queueId: w.support.id, status: "closed" });
    expectError(await call(w.admin, "PUT", `/ticket-tags/${closed.id}/${lane.id}`), 404, "ERR_NO_TICKET_FOUND");
  });

  it("is refused on a plan without useKanban, for every kanban route", async () => {
    const w = await company(Object.fromEntries(PlanFlags.map((f) => [f, f !== "useKanban"])));
    const lane = await buildTag(t.app, w.c.id, { kanban: 1 });
    const ticket = await w.ticket({ queueId: w.sales.id });
    for (const [method, url] of [
      ["GET", "/tags/kanban"],
      ["GET", "/ticket/kanban"],
      ["PUT", `/ticket-tags/${ticket.id}/${lane.id}`],
      ["DELETE", `/ticket-tags/${ticket.id}`],
    ] as const) {
      const res = await call(w.supervisor, method, url);
      expectError(res, 403, "ERR_NO_PERMISSION");
    }
    expect(await t.app.charla.db.select().from(ticketTags).where(eq(ticketTags.companyId, w.c.id))).toEqual([]);
  });
});
