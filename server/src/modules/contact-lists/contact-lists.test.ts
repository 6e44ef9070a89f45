import { readFileSync } from "node:fs";
import { type ContactListItemView, type ContactListView, Events, type Profile } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import { buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
const listen = eventListener(() => t.app);

const call = caller(() => t.app);
async function sessionIn(profile: Profile = "admin", plan: Record<string, boolean> = {}) {
  const c = await buildCompany(t.app, { plan: { useCampaigns: true, ...plan } });
  const u = profile === "admin" ? c.admin : await buildUser(t.app, c.id, { profile });
  return { c, u, s: await login(t.app, u) };
}
const newList = async (s: Session, name = `Clientes ${uid()}`) => {
  const res = await call(s, "POST", "/contact-lists", { name });
  expect(res.statusCode).toBe(201);
  return res.json() as ContactListView;
};
const newItem = async (s: Session, contactListId: number, over: Record<string, unknown> = {}) => {
  const res = await call(s, "POST", "/contact-list-items", {
    contactListId,
    name: "Ana María",
    number: `55 11 9${Math.floor(Math.random() * 1e8)}`,
    email: "",
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ContactListItemView;
};

describe("contact lists: who may", () => {
  it("needs the plan flag useCampaigns and a staff profile; agents are refused", async () => {
    const off = await sessionIn("admin", { useCampaigns: false });
    expectError(await call(off.s, "GET", "/contact-lists"), 403, "ERR_NO_PERMISSION");
    expectError(await call(off.s, "POST", "/contact-lists", { name: "Lista" }), 403, "ERR_NO_PERMISSION");
    const agent = await sessionIn("user");
    expectError(await call(agent.s, "GET", "/contact-lists/list"), 403, "ERR_NO_PERMISSION");
    expectError(await call(agent.s, "GET", "/contact-list-items?contactListId=1"), 403, "ERR_NO_PERMISSION");
    const supervisor = await sessionIn("supervisor");
    expect((await call(supervisor.s, "GET", "/contact-lists")).statusCode).toBe(200);
  });

  it("another company's lists and numbers answer 404 on every route", async () => {
    const a = await sessionIn();
    const b = await sessionIn();
    const list = await newList(a.s);
    const item = await newItem(a.s, list.id);
    for (const [method, url, body] of [
      ["GET", `/contact-lists/${list.id}`],
      ["PUT", `/contact-lists/${list.id}`, { name: "Robada" }],
      ["DELETE", `/contact-lists/${list.id}`],
      ["GET", `/contact-list-items?contactListId=${list.id}`],
      ["POST", "/contact-list-items", { contactListId: list.id, name: "Intrusa", number: "5511988887777" }],
    ] as const)
      expectError(await call(b.s, method, url, body), 404, "ERR_NO_CONTACT_LIST_FOUND");
    for (const [method, url, body] of [
      ["GET", `/contact-list-items/${item.id}`],
      ["PUT", `/contact-list-items/${item.id}`, { name: "Robada", number: "5511988887777" }],
      ["DELETE", `/contact-list-items/${item.id}`],
    ] as const)
      expectError(await call(b.s, method, url, body), 404, "ERR_NO_CONTACT_LIST_ITEM_FOUND");
    expect((await call(b.s, "GET", "/contact-lists")).json().records).toEqual([]);
    // nothing of a's moved
    expect((await call(a.s, "GET", `/contact-list-items/${item.id}`)).json()).toEqual(item);
    expect((await call(a.s, "GET", `/contact-lists/${list.id}`)).json()).toMatchObject({ name: list.name, contactsCount: 1 });
  });
});

describe("contact lists", () => {
  it("validates names as secondary §5 says", async () => {
    const { s } = await sessionIn();
    // the screens translate the keys (secondary §5: Requerido, Demasiado corto, Demasiado largo)
    for (const [name, message] of [
      ["", "validation.required"],
      ["A", "validation.listNameShort"],
      ["x".repeat(51), "validation.listNameLong"],
    ]) {
      const res = await call(s, "POST", "/contact-lists", { name });
      expectError(res, 400, "ERR_VALIDATION");
      expect(JSON.stringify(res.json())).toContain(message);
    }
  });

  it("creates, searches, pages, renames and deletes, counting each list's numbers, with live events to staff only", async () => {
    const { c, s, u } = await sessionIn();
    const agent = await buildUser(t.app, c.id, { profile: "user" });
    const events = listen();
    const tag = uid();
    const lists: ContactListView[] = [];
    for (let i = 0; i < 22; i++) lists.push(await newList(s, `Lista ${tag} ${String(i).padStart(2, "0")}`));
    await newItem(s, lists[0].id);
    await newItem(s, lists[0].id);

    const first = (await call(s, "GET", `/contact-lists?searchParam=${tag}`)).json();
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.count).toBe(22);
    expect(first.records[0]).toMatchObject({ id: lists[0].id, contactsCount: 2 });
    const second = (await call(s, "GET", `/contact-lists?searchParam=${tag}&pageNumber=2`)).json();
    expect(second.records.map((l: ContactListView) => l.id)).toEqual([lists[20].id, lists[21].id]);
    expect(second.hasMore).toBe(false);
    expect((await call(s, "GET", "/contact-lists/list")).json()).toHaveLength(22);

    const renamed = await call(s, "PUT", `/contact-lists/${lists[1].id}`, { name: "VIP" });
    expect(renamed.json()).toMatchObject({ id: lists[1].id, name: "VIP", contactsCount: 0 });
    expect((await call(s, "DELETE", `/contact-lists/${lists[0].id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/contact-lists/${lists[0].id}`), 404, "ERR_NO_CONTACT_LIST_FOUND");
    // its numbers went with it
    expectError(await call(s, "GET", `/contact-list-items?contactListId=${lists[0].id}`), 404, "ERR_NO_CONTACT_LIST_FOUND");

    const sent = events.events.filter((e) => e.event === Events.contactList(c.id));
    expect(sent.map((e) => (e.payload as { action: string }).action)).toEqual([
      ...Array(22).fill("create"),
      "update",
      "update",
      "update",
      "delete",
    ]);
    for (const e of sent) {
      expect(e.to).toContain(u.id);
      expect(e.to).not.toContain(agent.id);
    }
  });
});

describe("contact list items", () => {
  it("normalizes and validates numbers, names and emails; a number is once in a list", async () => {
    const { s } = await sessionIn();
    const list = await newList(s);
    const item = await newItem(s, list.id, { number: "+55 (11) 98765-4321", email: "Ana@Example.com" });
    expect(item).toMatchObject({
      number: "5511987654321",
      email: "ana@example.com",
      isWhatsappValid: null,
      contactListId: list.id,
    });
    expectError(
      await call(s, "POST", "/contact-list-items", { contactListId: list.id, name: "Otra", number: "5511987654321" }),
      409,
      "ERR_CONTACT_LIST_ITEM_EXISTS",
    );
    for (const [over, message] of [
      [{ name: "A" }, "validation.tooShort"],
      [{ number: "1234567" }, "validation.tooShort"],
      [{ number: "1".repeat(51) }, "validation.tooLong"],
      [{ email: "no-es-email" }, "validation.invalidEmail"],
    ] as const) {
      const res = await call(
        s,
        "POST",
        "/contact-list-items",
        Object.assign({ contactListId: list.id, name: "Ana", number: "5511911112222" }, over),
      );
      expectError(res, 400, "ERR_VALIDATION");
      expect(JSON.stringify(res.json())).toContain(message);
    }
    // the same number in another list is fine
    await newItem(s, (await newList(s)).id, { number: "5511987654321" });
  });

  it("pages and searches one list by name, number or email; edits keep the check unless the number changes", async () => {
    const { c, s } = await sessionIn();
    const list = await newList(s);
    const other = await newList(s);
    const events = listen();
    for (let i = 0; i < 21; i++)
      await newItem(s, list.id, {
        name: `Cliente ${String(i).padStart(2, "0")}`,
        number: `55119000000${String(i).padStart(2, "0")}`,
      });
    const bea = await newItem(s, list.id, { name: "Beatriz", number: "5521999990000", email: "bea@tienda.mx" });
    await newItem(s, other.id, { name: "Beatriz", number: "5521999990000" });

    const page = (await call(s, "GET", `/contact-list-items?contactListId=${list.id}`)).json();
    expect(page.contacts).toHaveLength(20);
    expect(page.hasMore).toBe(true);
    expect(page.count).toBe(22);
    for (const q of ["Beatr", "21 99999", "tienda"]) {
      const found = (
        await call(s, "GET", `/contact-list-items?contactListId=${list.id}&searchParam=${encodeURIComponent(q)}`)
      ).json();
      expect(
        found.contacts.map((i: ContactListItemView) => i.id),
        q,
      ).toEqual([bea.id]);
    }

    const { contactListItems } = await import("../../db/schema/index.js");
    const { eq } = await import("drizzle-orm");
    await t.app.charla.db.update(contactListItems).set({ isWhatsappValid: true }).where(eq(contactListItems.id, bea.id));
    const renamed = (
      await call(s, "PUT", `/contact-list-items/${bea.id}`, { name: "Bea", number: "5521999990000", email: "" })
    ).json();
    expect(renamed).toMatchObject({ name: "Bea", isWhatsappValid: true, email: "" });
    const moved = (await call(s, "PUT", `/contact-list-items/${bea.id}`, { name: "Bea", number: "5521999990001" })).json();
    expect(moved).toMatchObject({ number: "5521999990001", isWhatsappValid: null });

    expect((await call(s, "DELETE", `/contact-list-items/${bea.id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/contact-list-items/${bea.id}`), 404, "ERR_NO_CONTACT_LIST_ITEM_FOUND");
    expect((await call(s, "GET", `/contact-lists/${list.id}`)).json().contactsCount).toBe(21);

    // per list channel too, so the list's open page follows
    const perList = events.on(Events.contactListItemsOf(c.id, list.id)) as { action: string }[];
    expect(perList.map((e) => e.action)).toEqual([...Array(22).fill("create"), "update", "update", "delete"]);
    expect(events.on(Events.contactListItem(c.id))).toHaveLength(26);
  });

  it("deleting a number is for the profiles of contacts-page:deleteContact", async () => {
    const { c, s } = await sessionIn();
    const list = await newList(s);
    const item = await newItem(s, list.id);
    const supervisor = await login(t.app, await buildUser(t.app, c.id, { profile: "supervisor" }));
    expect((await call(supervisor, "DELETE", `/contact-list-items/${item.id}`)).statusCode).toBe(204);
  });

  it("stores what contacts send as text, script payloads included, and answers it as it came", async () => {
    const { s } = await sessionIn();
    const list = await newList(s);
    const payloads = readFileSync(new URL("../../../../e2e/fixtures/xss-payloads.txt", import.meta.url), "utf8")
      .split("\n")
      .filter((l) => l.trim().length >= 2 && l.trim().length <= 50)
      .slice(0, 10);
    for (const [i, name] of payloads.entries()) {
      const item = await newItem(s, list.id, { name, number: `551170000${String(i).padStart(4, "0")}` });
      expect(item.name).toBe(name.trim());
    }
  });
});
