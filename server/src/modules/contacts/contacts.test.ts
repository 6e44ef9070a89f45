import { Events } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildContact, buildUser, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { scoped } from "../../db/scoped.js";
import { contactsCsv } from "./csv.js";
import { exportContacts } from "./queries.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const num = () => `52155${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 90 + 10)}`;

async function adminOf() {
  const c = await buildCompany(t.app);
  return { c, s: await login(t.app, c.admin) };
}

describe("#contacts", () => {
  it("should require authentication", async () => {
    for (const [method, url] of [
      ["GET", "/api/v1/contacts"],
      ["GET", "/api/v1/contacts/list"],
      ["GET", "/api/v1/contacts/1"],
      ["POST", "/api/v1/contacts"],
      ["PUT", "/api/v1/contacts/1"],
      ["DELETE", "/api/v1/contacts/1"],
    ] as const) {
      expectError(await t.app.inject({ method, url }), 401, "ERR_SESSION_EXPIRED");
    }
  });

  it("creates a contact with the number's digits, email and extra info, and announces it", async () => {
    const { c, s } = await adminOf();
    const emitted: unknown[] = [];
    const original = t.app.charla.realtime.toCompany;
    t.app.charla.realtime.toCompany = (cid) => ({ emit: (event, payload) => emitted.push({ cid, event, payload }) });
    try {
      const res = await call(s, "POST", "/contacts", {
        name: "  María López ",
        number: "+52 1 (55) 1234-5678",
        email: "Maria@Example.com",
        extraInfo: [{ name: "RFC", value: "LOMM800101" }],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        name: "María López",
        number: "5215512345678",
        email: "maria@example.com",
        extraInfo: [{ name: "RFC", value: "LOMM800101" }],
        isGroup: false,
      });
      expect(emitted).toEqual([{ cid: c.id, event: Events.contact(c.id), payload: { action: "create", contact: res.json() } }]);
    } finally {
      t.app.charla.realtime.toCompany = original;
    }
  });

  it("validates name 2–50, number 8–50 digits and email (core §5)", async () => {
    const { s } = await adminOf();
    const cases: [object, string, string][] = [
      [{ name: "A" }, "body.name", "validation.tooShort"],
      [{ name: "x".repeat(51) }, "body.name", "validation.tooLong"],
      [{}, "body.name", "validation.required"],
      [{ name: "Ana", number: "1234567" }, "body.number", "validation.tooShort"],
      [{ name: "Ana", number: "1".repeat(51) }, "body.number", "validation.tooLong"],
      [{ name: "Ana", email: "not-an-email" }, "body.email", "validation.invalidEmail"],
    ];
    for (const [body, path, message] of cases) {
      const res = await call(s, "POST", "/contacts", body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues).toEqual(expect.arrayContaining([expect.objectContaining({ path, message })]));
    }
    expect((await call(s, "POST", "/contacts", { name: "Sin número" })).statusCode).toBe(201);
    expect((await call(s, "POST", "/contacts", { name: "Otro sin número" })).statusCode).toBe(201);
  });

  it("keeps numbers unique per company (409 ERR_DUPLICATED_CONTACT), not across companies", async () => {
    const { s } = await adminOf();
    const other = await adminOf();
    const n = num();
    expect((await call(s, "POST", "/contacts", { name: "Uno", number: n })).statusCode).toBe(201);
    expectError(await call(s, "POST", "/contacts", { name: "Dos", number: `+${n}` }), 409, "ERR_DUPLICATED_CONTACT");
    expect((await call(other.s, "POST", "/contacts", { name: "Uno", number: n })).statusCode).toBe(201);
    const second = (await call(s, "POST", "/contacts", { name: "Tres", number: num() })).json();
    expectError(await call(s, "PUT", `/contacts/${second.id}`, { name: "Tres", number: n }), 409, "ERR_DUPLICATED_CONTACT");
  });

  it("pages 20 at a time in name order and searches by name or number", async () => {
    const { c, s } = await adminOf();
    // letters only: a search's digits also match numbers, and a random tag's digits could match one
    const tag = uid().replace(/\d/g, "q");
    // numbers of their own too: random ones hold "99887" (searched below) once in a few hundred runs
    for (let i = 0; i < 23; i++)
      await buildContact(t.app, c.id, {
        name: `Cliente ${tag} ${String(i).padStart(2, "0")}`,
        number: `52155${String(c.id).padStart(6, "0")}${String(i).padStart(2, "0")}`,
      });
    const special = await buildContact(t.app, c.id, { name: "Zoila Búsqueda", number: "5215599887766" });
    const p1 = (await call(s, "GET", "/contacts?pageNumber=1")).json();
    expect(p1.contacts).toHaveLength(20);
    expect(p1).toMatchObject({ count: 24, hasMore: true });
    const p2 = (await call(s, "GET", "/contacts?pageNumber=2")).json();
    expect(p2.contacts).toHaveLength(4);
    expect(p2.hasMore).toBe(false);
    expect((await call(s, "GET", "/contacts?searchParam=zoila")).json().contacts.map((x: { id: number }) => x.id)).toEqual([
      special.id,
    ]);
    expect((await call(s, "GET", "/contacts?searchParam=99887")).json().contacts.map((x: { id: number }) => x.id)).toEqual([
      special.id,
    ]);
    expect((await call(s, "GET", "/contacts?searchParam=%25%25%25")).json().count).toBe(0);
    const list = (await call(s, "GET", `/contacts/list?searchParam=${tag}`)).json();
    expect(list).toHaveLength(23);
  });

  it("treats a search under 3 characters as no search, on every list with searchParam (core §9)", async () => {
    const { c, s } = await adminOf();
    const zoila = await buildContact(t.app, c.id, { name: "Zoila Corta" });
    await buildContact(t.app, c.id, { name: "Otro Nombre" });
    for (const short of ["z", "zo", "%20zo%20", "%F0%9F%98%80%F0%9F%98%80"]) {
      expect((await call(s, "GET", `/contacts?searchParam=${short}`)).json().count).toBe(2);
      expect((await call(s, "GET", `/contacts/list?searchParam=${short}`)).json()).toHaveLength(2);
      expect((await call(s, "GET", `/users?searchParam=${short}`)).statusCode).toBe(200);
      const tickets = await call(s, "GET", `/tickets?searchParam=${short}&status=pending`);
      expect(tickets.statusCode).toBe(200);
    }
    expect((await call(s, "GET", "/contacts?searchParam=zoi")).json().contacts.map((x: { id: number }) => x.id)).toEqual([
      zoila.id,
    ]);
    // the users list of a company with two users: one letter lists both, three letters filter
    const users = (q: string) => call(s, "GET", `/users?searchParam=${q}`).then((r) => r.json().users.length);
    await buildUser(t.app, c.id, { name: "Xavier Largo" });
    expect(await users("x")).toBe(2);
    expect(await users("xav")).toBe(1);
  });

  it("reads and updates a contact; another company's contact is not found", async () => {
    const { c, s } = await adminOf();
    const other = await adminOf();
    const mine = await buildContact(t.app, c.id);
    const theirs = await buildContact(t.app, other.c.id);
    expect((await call(s, "GET", `/contacts/${mine.id}`)).json()).toMatchObject({ id: mine.id, name: mine.name });
    const upd = await call(s, "PUT", `/contacts/${mine.id}`, { name: "Nuevo Nombre", number: mine.number, extraInfo: [] });
    expect(upd.json()).toMatchObject({ name: "Nuevo Nombre", number: mine.number });
    expectError(await call(s, "GET", `/contacts/${theirs.id}`), 404, "ERR_NO_CONTACT_FOUND");
    expectError(await call(s, "PUT", `/contacts/${theirs.id}`, { name: "Robado" }), 404, "ERR_NO_CONTACT_FOUND");
    expectError(await call(s, "DELETE", `/contacts/${theirs.id}`), 404, "ERR_NO_CONTACT_FOUND");
    expect((await call(other.s, "GET", `/contacts/${theirs.id}`)).json().name).toBe(theirs.name);
  });

  it("lets only contacts-page:deleteContact profiles delete (agents get 403)", async () => {
    const { c, s } = await adminOf();
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    const sub = await login(t.app, await buildUser(t.app, c.id, { profile: "subadmin" }));
    const a = await buildContact(t.app, c.id);
    const b = await buildContact(t.app, c.id);
    expect((await call(agent, "GET", `/contacts/${a.id}`)).statusCode).toBe(200);
    expect((await call(agent, "POST", "/contacts", { name: "De un agente" })).statusCode).toBe(201);
    expectError(await call(agent, "DELETE", `/contacts/${a.id}`), 403, "ERR_NO_PERMISSION");
    expect((await call(sub, "DELETE", `/contacts/${a.id}`)).statusCode).toBe(204);
    expect((await call(s, "DELETE", `/contacts/${b.id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/contacts/${b.id}`), 404, "ERR_NO_CONTACT_FOUND");
  });

  it("exports every contact as semicolon CSV (name, number, email), quoting and defusing formulas", async () => {
    const { c, s } = await adminOf();
    await buildContact(t.app, c.id, { name: "Ana; Pérez", number: "5215511112222", email: "ana@x.mx" });
    await buildContact(t.app, c.id, { name: '=HYPERLINK("x")', number: "5215533334444", email: "" });
    const other = await adminOf();
    await buildContact(t.app, other.c.id, { name: "Ajeno", number: "5215599990000" });
    const res = await call(s, "GET", "/contacts/export");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("name;number;email");
    expect(lines).toContain('"Ana; Pérez";5215511112222;ana@x.mx');
    expect(lines).toContain(`"'=HYPERLINK(""x"")";5215533334444;`);
    expect(res.body).not.toContain("Ajeno");
  });

  it("writes the export batch by batch: each batch leaves before the next is read", async () => {
    const { c, s } = await adminOf();
    for (let i = 0; i < 5; i++) await buildContact(t.app, c.id, { name: `Lote ${i}` });
    const read: number[] = [];
    async function* batches() {
      for await (const rows of exportContacts(scoped(t.app.charla.db, c.id), 2)) {
        read.push(rows.length);
        yield rows;
      }
    }
    const chunks: string[] = [];
    for await (const chunk of contactsCsv(batches())) {
      chunks.push(chunk);
      // the header and each batch are written as soon as they exist: never more than one batch ahead
      expect(read.length).toBe(chunks.length - 1);
    }
    expect(read).toEqual([2, 2, 1]);
    expect(chunks[0]).toBe("\ufeffname;number;email\r\n");
    expect(chunks.slice(1).join("").trim().split("\r\n")).toHaveLength(5);
    // the route sends the same stream
    const res = await call(s, "GET", "/contacts/export");
    expect(res.body).toBe(chunks.join(""));
  });
});
