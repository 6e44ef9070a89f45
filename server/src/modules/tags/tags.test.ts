import { Events, QUEUE_PALETTE, type TagView, type TagsPage } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketTags } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { buildCompany, buildContact, buildTag, buildTicket, buildUser, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);

const call = caller(() => t.app);

async function company() {
  const c = await buildCompany(t.app);
  const agent = await buildUser(t.app, c.id, { profile: "user" });
  const supervisor = await buildUser(t.app, c.id, { profile: "supervisor" });
  return {
    c,
    admin: await login(t.app, c.admin),
    agent: await login(t.app, agent),
    supervisor: await login(t.app, supervisor),
  };
}

describe("#tags page endpoints", () => {
  it("pages 20 at a time in name order, searches by name from 3 characters, and counts each tag's tickets", async () => {
    const w = await company();
    for (let i = 0; i < 23; i++) await buildTag(t.app, w.c.id, { name: `Etiqueta ${String(i).padStart(2, "0")}` });
    const vip = await buildTag(t.app, w.c.id, { name: "Cliente VIP" });
    const contact = await buildContact(t.app, w.c.id);
    const ticket = await buildTicket(t.app, w.c.id, { contactId: contact.id });
    await t.app.charla.db.insert(ticketTags).values({ companyId: w.c.id, ticketId: ticket.id, tagId: vip.id });

    const first = (await call(w.agent, "GET", "/tags?pageNumber=1")).json() as TagsPage;
    expect(first.tags).toHaveLength(20);
    expect(first).toMatchObject({ count: 24, hasMore: true });
    expect(first.tags[0]).toMatchObject({ name: "Cliente VIP", ticketsCount: 1 });
    const second = (await call(w.agent, "GET", "/tags?pageNumber=2")).json() as TagsPage;
    expect(second.tags.map((tag) => tag.name)).toEqual(["Etiqueta 19", "Etiqueta 20", "Etiqueta 21", "Etiqueta 22"]);
    expect(second.hasMore).toBe(false);
    const found = (await call(w.agent, "GET", `/tags?searchParam=${encodeURIComponent("vip")}`)).json() as TagsPage;
    expect(found.tags.map((tag) => tag.name)).toEqual(["Cliente VIP"]);
    // a search under 3 characters is no search (core §9), and LIKE's wildcards are literal
    expect(((await call(w.agent, "GET", "/tags?searchParam=vi")).json() as TagsPage).count).toBe(24);
    expect(((await call(w.agent, "GET", `/tags?searchParam=${encodeURIComponent("%%%")}`)).json() as TagsPage).count).toBe(0);
    expect((await call(w.agent, "GET", `/tags/${vip.id}`)).json()).toMatchObject({ id: vip.id, ticketsCount: 1 });
  });

  it("creates, edits and deletes with every profile; only admins and supervisors set the Kanban flag", async () => {
    const w = await company();
    const capture = listen();
    const created = await call(w.agent, "POST", "/tags", { name: `Urgente ${uid()}`, color: "#FF0000", kanban: 1 });
    expect(created.statusCode).toBe(201);
    const tag = created.json() as TagView;
    expect(tag).toMatchObject({ kanban: 0, ticketsCount: 0, color: "#FF0000" });
    // an agent's edit keeps the flag as it was, a supervisor's sets it
    expect((await call(w.agent, "PUT", `/tags/${tag.id}`, { name: tag.name, color: "#00FF00", kanban: 1 })).json()).toMatchObject(
      {
        kanban: 0,
        color: "#00FF00",
      },
    );
    expect((await call(w.supervisor, "PUT", `/tags/${tag.id}`, { name: "Seguimiento", kanban: 1 })).json()).toMatchObject({
      name: "Seguimiento",
      kanban: 1,
    });
    expect((await call(w.agent, "PUT", `/tags/${tag.id}`, { name: "Seguimiento 2" })).json()).toMatchObject({ kanban: 1 });
    expect((await call(w.agent, "DELETE", `/tags/${tag.id}`)).statusCode).toBe(204);
    expectError(await call(w.agent, "GET", `/tags/${tag.id}`), 404, "ERR_NO_TAG_FOUND");
    // every change on the spec's channel, to the company only
    const seen = capture.events.filter((e) => e.event === Events.tag(w.c.id));
    expect(seen.map((e) => (e.payload as { action: string }).action)).toEqual(["create", "update", "update", "update", "delete"]);
    expect(seen.every((e) => e.companyId === w.c.id)).toBe(true);
    expect(seen.at(-1)?.payload).toEqual({ action: "delete", tagId: tag.id });
  });

  it("creates a tag from its name alone (core §7), each new one in a preset colour not yet taken", async () => {
    const w = await company();
    await buildTag(t.app, w.c.id, { name: "Roja", color: QUEUE_PALETTE[0].toLowerCase() });
    const made: TagView[] = [];
    for (const body of [{ name: "Primera" }, { name: "Segunda", color: "" }, { name: "Tercera", color: null }]) {
      const res = await call(w.agent, "POST", "/tags", body);
      expect(res.statusCode).toBe(201);
      made.push(res.json() as TagView);
    }
    // the first preset is taken (whatever its case): the next ones, one each
    expect(made.map((tag) => tag.color)).toEqual([QUEUE_PALETTE[1], QUEUE_PALETTE[2], QUEUE_PALETTE[3]]);
    // an edit without a colour keeps it
    expect((await call(w.agent, "PUT", `/tags/${made[0].id}`, { name: "Primera bis" })).json()).toMatchObject({
      name: "Primera bis",
      color: QUEUE_PALETTE[1],
    });
    expectError(await call(w.agent, "POST", "/tags", { name: "Mala", color: "rojo" }), 400, "ERR_VALIDATION");
  });

  it("rotates through the presets once every one is taken", async () => {
    const w = await company();
    for (const [i, color] of QUEUE_PALETTE.entries()) await buildTag(t.app, w.c.id, { name: `Tag ${i}`, color });
    const first = (await call(w.admin, "POST", "/tags", { name: "Una más" })).json() as TagView;
    const second = (await call(w.admin, "POST", "/tags", { name: "Y otra" })).json() as TagView;
    expect([first.color, second.color]).toEqual([QUEUE_PALETTE[0], QUEUE_PALETTE[1]]);
  });

  it("refuses bad names (Obligatorio, too short, taken) and another company's tags, writing nothing", async () => {
    const w = await company();
    const other = await buildCompany(t.app);
    const theirs = await buildTag(t.app, other.id, { name: "De otra empresa" });
    const mine = await buildTag(t.app, w.c.id, { name: "Mía" });
    expectError(await call(w.admin, "POST", "/tags", { name: "" }), 400, "ERR_VALIDATION");
    expectError(await call(w.admin, "POST", "/tags", { name: "ab" }), 400, "ERR_VALIDATION");
    expectError(await call(w.admin, "POST", "/tags", { name: "Mía" }), 409, "ERR_TAG_NAME_EXISTS");
    expectError(await call(w.admin, "PUT", `/tags/${mine.id}`, { name: "x" }), 400, "ERR_VALIDATION");
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { name: "Robada" }],
      ["DELETE", undefined],
    ] as const)
      expectError(await call(w.admin, method, `/tags/${theirs.id}`, body), 404, "ERR_NO_TAG_FOUND");
    expect(((await call(w.admin, "GET", "/tags")).json() as TagsPage).tags.map((tag) => tag.name)).toEqual(["Mía"]);
  });
});
