import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tickets } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../app.js";
import { buildCompany, buildContact, buildTicket, buildUser, buildWhatsapp, login, type Session } from "../factories.js";
import { caller, expectError, uid } from "../http.js";

/*
 * The web clients of the product family send optional values in loose forms (contracts/src/common.ts):
 * booleans as 1/0 or strings, a cleared id as null, "" or false, an untouched text as "" or null.
 * Representative routes of every kind (query flags, ids in bodies, texts with rules, defaults) take
 * them as the values they mean, and still refuse what means nothing.
 */
let t: TestApp;
let s: Session;
let companyId: number;
let agentId: number;
beforeAll(async () => {
  t = await getTestApp();
  const c = await buildCompany(t.app);
  companyId = c.id;
  await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED", isDefault: true });
  agentId = (await buildUser(t.app, c.id, { profile: "user" })).id;
  s = await login(t.app, c.admin);
});
afterAll(() => t.close());

const call = caller(() => t.app);
const ok = <R extends { statusCode: number; body: string }>(res: R): R => {
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
};

describe("loose optional values", () => {
  it("reads booleans as true/false, 1/0 and their strings, in queries and bodies", async () => {
    for (const flag of ["1", "0", "true", "false", "on", "off", ""]) {
      ok(await call(s, "GET", `/tickets?showAll=${flag}&withUnreadMessages=${flag}`));
    }
    const contact = await buildContact(t.app, companyId);
    const ticket = await buildTicket(t.app, companyId, { contactId: contact.id, status: "open", userId: agentId });
    await t.app.charla.db.update(tickets).set({ unreadMessages: 2 }).where(eq(tickets.id, ticket.id));
    // peek=1 is a peek: the ticket stays unread
    const peek = ok(await call(s, "GET", `/messages/${ticket.id}?peek=1`)).json();
    expect(peek.ticket.unreadMessages).toBe(2);

    const reply = ok(await call(s, "POST", "/quick-messages", { shortcode: `q${uid()}`, message: null, geral: "0", status: 1 }));
    expect(reply.json()).toMatchObject({ geral: false, status: true, message: "" });
    const other = ok(await call(s, "POST", "/quick-messages", { shortcode: `q${uid()}`, geral: 0, status: "false" }));
    expect(other.json()).toMatchObject({ geral: false, status: false });
    // a plain HTML form's checkbox
    const checked = ok(await call(s, "POST", "/quick-messages", { shortcode: `q${uid()}`, geral: "off", status: "on" }));
    expect(checked.json()).toMatchObject({ geral: false, status: true });
  });

  it('reads null, "" and false as no id', async () => {
    for (const none of [null, "", false]) {
      const contact = await buildContact(t.app, companyId);
      const created = ok(
        await call(s, "POST", "/tickets", { contactId: contact.id, queueId: none, userId: none, whatsappId: none }),
      ).json();
      expect(created).toMatchObject({ contactId: contact.id, queueId: null });
      const updated = ok(
        await call(s, "PUT", `/tickets/${created.id}`, { useIntegration: "false", promptId: none, integrationId: none }),
      ).json();
      expect(updated.id).toBe(created.id);
      await call(s, "DELETE", `/tickets/${created.id}`);
    }
    const user = ok(await call(s, "GET", `/users/${agentId}`)).json();
    ok(await call(s, "PUT", `/users/${agentId}`, { name: user.name, email: user.email, whatsappId: "", password: null }));
  });

  it("reads empty optional texts as absent", async () => {
    const contact = ok(await call(s, "POST", "/contacts", { name: "Sin Datos", number: null, email: "" })).json();
    expect(contact).toMatchObject({ number: "", email: "" });
    const tag = ok(await call(s, "POST", "/tags", { name: `Etiqueta ${uid()}`, color: "" })).json();
    expect(tag.color).toMatch(/^#[0-9A-F]{6}$/);
    ok(await call(s, "GET", "/tickets?date=&updatedAt="));
    const dashboard = ok(await call(s, "GET", "/dashboard?days=&date_from=2025-01-01&date_to=")).json();
    expect(dashboard.period.from).toBe("2025-01-01");
  });

  it("still refuses what is no boolean, id or text of its kind", async () => {
    expectError(await call(s, "GET", "/tickets?showAll=maybe"), 400, "ERR_VALIDATION");
    expectError(await call(s, "GET", "/messages/1?peek=2"), 400, "ERR_VALIDATION");
    expectError(await call(s, "POST", "/quick-messages", { shortcode: `q${uid()}`, geral: "yes" }), 400, "ERR_VALIDATION");
    const contact = await buildContact(t.app, companyId);
    for (const bad of ["abc", 0, -3, true, "true"]) {
      const res = await call(s, "POST", "/tickets", { contactId: contact.id, queueId: bad });
      expect(res.statusCode, `queueId ${JSON.stringify(bad)}: ${res.body}`).toBe(400);
    }
    expectError(await call(s, "POST", "/contacts", { name: "Correo Malo", email: "no" }), 400, "ERR_VALIDATION");
    expectError(await call(s, "POST", "/tags", { name: `Etiqueta ${uid()}`, color: "rojo" }), 400, "ERR_VALIDATION");
  });
});
