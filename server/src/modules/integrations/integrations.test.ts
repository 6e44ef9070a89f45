import { Events, type IntegrationView, V } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueIntegrations, queueOptions, queues, tickets, whatsapps } from "../../db/schema/index.js";
import { checkOutboundUrl, isPrivateAddress } from "../../lib/outbound-url.js";
import { getIsolatedTestApp, getTestApp, type TestApp } from "../../test/app.js";
import { eventListener } from "../../test/events.js";
import {
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
  type Session,
} from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());
const call = caller(() => t.app);
const listen = eventListener(() => t.app);

async function admin(useIntegrations = true) {
  const c = await buildCompany(t.app, { plan: { useIntegrations } });
  return { c, s: await login(t.app, c.admin) };
}
const webhook = (over: Record<string, unknown> = {}) => ({
  type: "webhook",
  name: `Webhook ${uid()}`,
  urlN8N: "https://hooks.example.com/charla",
  ...over,
});
async function created(s: Session, body: Record<string, unknown>): Promise<IntegrationView> {
  const res = await call(s, "POST", "/queueIntegration", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
/** A Standard Webhooks secret: whsec_ and the base64 of 24 to 32 random bytes. */
const isWhsec = (key: string) => {
  const m = /^whsec_([A-Za-z0-9+/=]+)$/.exec(key);
  const n = m ? Buffer.from(m[1], "base64").length : 0;
  return n >= 24 && n <= 32;
};

describe("queue integrations", () => {
  it("create, read, list with search, edit and delete; projectName is the name; the secret key is the server's", async () => {
    const { s } = await admin();
    const name = `Pedidos ${uid()}`;
    const made = await created(s, { ...webhook({ name }), projectName: "otro", apikey: "whsec_ZnJvbS1jbGllbnQ=" });
    expect(made).toMatchObject({
      type: "webhook",
      name,
      projectName: name,
      urlN8N: "https://hooks.example.com/charla",
      lastDelivery: null,
    });
    expect(isWhsec(made.apikey)).toBe(true);
    expect(made.apikey).not.toBe("whsec_ZnJvbS1jbGllbnQ=");
    // stored sealed, never in clear
    const [row] = await t.app.charla.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, made.id));
    expect(row.apikeySealed).not.toContain(made.apikey);
    expect(t.app.charla.secrets.open(row.apikeySealed)).toBe(made.apikey);

    const n8n = await created(s, { type: "n8n", name: `Flujo ${uid()}`, urlN8N: "https://n8n.example.com/webhook/1" });
    expect(isWhsec(n8n.apikey)).toBe(true);
    expect(n8n.apikey).not.toBe(made.apikey);

    const read = await call(s, "GET", `/queueIntegration/${made.id}`);
    expect(read.json()).toMatchObject({ id: made.id, apikey: made.apikey });
    const page = await call(s, "GET", "/queueIntegration?searchParam=pedidos&pageNumber=1");
    expect(page.json()).toMatchObject({ queueIntegrations: [{ id: made.id }], hasMore: false, count: 1 });
    const all = await call(s, "GET", "/queueIntegration");
    expect(all.json().count).toBe(2);

    const renamed = `Ventas ${uid()}`;
    const edit = await call(s, "PUT", `/queueIntegration/${made.id}`, {
      ...webhook({ name: renamed, urlN8N: "http://hooks.example.com/v2" }),
      apikey: "whsec_b3RybyBkZWwgY2xpZW50ZQ==",
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      name: renamed,
      projectName: renamed,
      urlN8N: "http://hooks.example.com/v2",
      apikey: made.apikey,
    });

    const gone = await call(s, "DELETE", `/queueIntegration/${made.id}`);
    expect(gone.statusCode).toBe(204);
    expectError(await call(s, "GET", `/queueIntegration/${made.id}`), 404, "ERR_NO_INTEGRATION_FOUND");
    expectError(await call(s, "DELETE", `/queueIntegration/${made.id}`), 404, "ERR_NO_INTEGRATION_FOUND");
  });

  it("typebot defaults (delay 1000 ms, expires 1 min); each type's required fields; dialogflow as listed", async () => {
    const { s } = await admin();
    const bot = await created(s, {
      type: "typebot",
      name: `Bot ${uid()}`,
      urlN8N: "https://typebot.example.com",
      typebotSlug: "ventas",
    });
    expect(bot).toMatchObject({
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: "",
      typebotUnknownMessage: "",
      apikey: "",
    });
    const blanks = await created(s, {
      type: "typebot",
      name: `Bot ${uid()}`,
      urlN8N: "https://typebot.example.com",
      typebotSlug: "x",
      typebotDelayMessage: "",
      typebotExpires: null,
      typebotKeywordFinish: "#salir",
      typebotUnknownMessage: "No entendí",
    });
    expect(blanks).toMatchObject({
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: "#salir",
      typebotUnknownMessage: "No entendí",
    });

    const noSlug = await call(s, "POST", "/queueIntegration", {
      type: "typebot",
      name: `Bot ${uid()}`,
      urlN8N: "https://t.example.com",
    });
    expect(noSlug.statusCode).toBe(400);
    expect(noSlug.json().issues).toEqual([{ path: "body.typebotSlug", message: V.required }]);
    const noUrl = await call(s, "POST", "/queueIntegration", { type: "webhook", name: `W ${uid()}` });
    expect(noUrl.json().issues).toEqual([{ path: "body.urlN8N", message: V.required }]);
    const badType = await call(s, "POST", "/queueIntegration", webhook({ type: "zapier" }));
    expect(badType.statusCode).toBe(400);
    const ftp = await call(s, "POST", "/queueIntegration", webhook({ urlN8N: "ftp://hooks.example.com" }));
    expect(ftp.statusCode).toBe(400);

    const flow = await created(s, {
      type: "dialogflow",
      name: `DF ${uid()}`,
      jsonContent: '{"type":"service_account"}',
      language: "es",
    });
    expect(flow).toMatchObject({
      type: "dialogflow",
      urlN8N: "",
      jsonContent: '{"type":"service_account"}',
      language: "es",
      apikey: "",
    });
    // typebot and dialogflow receive no events
    expectError(await call(s, "POST", `/queueIntegration/${bot.id}/test`), 400, "ERR_INTEGRATION_NOT_DELIVERABLE");
    expectError(await call(s, "POST", `/queueIntegration/${flow.id}/test`), 400, "ERR_INTEGRATION_NOT_DELIVERABLE");
    // a typebot turned into a webhook gets its secret key
    const turned = await call(s, "PUT", `/queueIntegration/${bot.id}`, webhook({ name: bot.name }));
    expect(isWhsec(turned.json().apikey)).toBe(true);
  });

  it("name: required, 2 to 50 characters, unique per company (409)", async () => {
    const { s } = await admin();
    const empty = await call(s, "POST", "/queueIntegration", webhook({ name: "  " }));
    expect(empty.json().issues).toContainEqual({ path: "body.name", message: V.required });
    const short = await call(s, "POST", "/queueIntegration", webhook({ name: "a" }));
    expect(short.json().issues).toEqual([{ path: "body.name", message: V.tooShort }]);
    const long = await call(s, "POST", "/queueIntegration", webhook({ name: "x".repeat(51) }));
    expect(long.json().issues).toEqual([{ path: "body.name", message: V.tooLong }]);
    await created(s, webhook({ name: "ab" }));
    await created(s, webhook({ name: "y".repeat(50) }));
    expectError(await call(s, "POST", "/queueIntegration", webhook({ name: "ab" })), 409, "ERR_INTEGRATION_NAME_EXISTS");
    const other = await created(s, webhook());
    expectError(
      await call(s, "PUT", `/queueIntegration/${other.id}`, webhook({ name: "ab" })),
      409,
      "ERR_INTEGRATION_NAME_EXISTS",
    );
    // another company may use the same name
    const { s: elsewhere } = await admin();
    await created(elsewhere, webhook({ name: "ab" }));
  });

  it("admins on a plan with integrations only: flag off 403, agents 403, another company's id 404", async () => {
    const { c, s } = await admin();
    const mine = await created(s, webhook());
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    for (const [method, url] of [
      ["GET", "/queueIntegration"],
      ["POST", "/queueIntegration"],
      ["GET", `/queueIntegration/${mine.id}`],
      ["PUT", `/queueIntegration/${mine.id}`],
      ["DELETE", `/queueIntegration/${mine.id}`],
      ["GET", `/queueIntegration/${mine.id}/deliveries`],
      ["POST", `/queueIntegration/${mine.id}/test`],
    ] as const) {
      expectError(
        await call(agent, method, url, method === "POST" || method === "PUT" ? webhook() : undefined),
        403,
        "ERR_NO_PERMISSION",
      );
    }
    const { s: noFlag } = await admin(false);
    expectError(await call(noFlag, "GET", "/queueIntegration"), 403, "ERR_NO_PERMISSION");
    expectError(await call(noFlag, "POST", "/queueIntegration", webhook()), 403, "ERR_NO_PERMISSION");

    const { s: other } = await admin();
    expectError(await call(other, "GET", `/queueIntegration/${mine.id}`), 404, "ERR_NO_INTEGRATION_FOUND");
    expectError(await call(other, "PUT", `/queueIntegration/${mine.id}`, webhook()), 404, "ERR_NO_INTEGRATION_FOUND");
    expectError(await call(other, "DELETE", `/queueIntegration/${mine.id}`), 404, "ERR_NO_INTEGRATION_FOUND");
    expectError(await call(other, "GET", `/queueIntegration/${mine.id}/deliveries`), 404, "ERR_NO_INTEGRATION_FOUND");
    expectError(await call(other, "POST", `/queueIntegration/${mine.id}/test`), 404, "ERR_NO_INTEGRATION_FOUND");
    expect((await call(s, "GET", `/queueIntegration/${mine.id}`)).json().name).toBe(mine.name);
  });

  it("deleting one clears the areas, options, connections and tickets that pointed at it, in its transaction", async () => {
    const { c, s } = await admin();
    const hook = await created(s, webhook());
    const kept = await created(s, webhook());
    const queue = await buildQueue(t.app, c.id, { integrationId: hook.id });
    const keptQueue = await buildQueue(t.app, c.id, { integrationId: kept.id });
    const [option] = await t.app.charla.db
      .insert(queueOptions)
      .values({ companyId: c.id, queueId: queue.id, title: "Ventas", option: "1", qIntegrationId: hook.id })
      .returning();
    const wa = await buildWhatsapp(t.app, c.id, { integrationId: hook.id });
    const contact = await buildContact(t.app, c.id);
    const ticket = await buildTicket(t.app, c.id, {
      contactId: contact.id,
      whatsappId: wa.id,
      integrationId: hook.id,
      useIntegration: true,
    });
    expect((await call(s, "DELETE", `/queueIntegration/${hook.id}`)).statusCode).toBe(204);
    const [q] = await t.app.charla.db.select().from(queues).where(eq(queues.id, queue.id));
    const [k] = await t.app.charla.db.select().from(queues).where(eq(queues.id, keptQueue.id));
    const [o] = await t.app.charla.db.select().from(queueOptions).where(eq(queueOptions.id, option.id));
    const [w] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, wa.id));
    const [tk] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect([q.integrationId, o.qIntegrationId, w.integrationId, tk.integrationId, tk.useIntegration]).toEqual([
      null,
      null,
      null,
      null,
      false,
    ]);
    expect(k.integrationId).toBe(kept.id);
  });

  it("tells the company's admins (not its agents) on company-{id}-queueIntegration", async () => {
    const { c, s } = await admin();
    const agent = await buildUser(t.app, c.id, { profile: "user" });
    const otherAdmin = await buildUser(t.app, c.id, { profile: "admin" });
    const capture = listen();
    const made = await created(s, webhook());
    await call(s, "PUT", `/queueIntegration/${made.id}`, webhook({ name: made.name, urlN8N: "https://x.example.com" }));
    await call(s, "DELETE", `/queueIntegration/${made.id}`);
    const sent = capture.events.filter((e) => e.event === Events.queueIntegration(c.id));
    expect(sent.map((e) => (e.payload as { action: string }).action)).toEqual(["create", "update", "delete"]);
    for (const e of sent) {
      expect(e.to).toEqual(expect.arrayContaining([c.admin.id, otherAdmin.id]));
      expect(e.to).not.toContain(agent.id);
    }
    expect(sent[0].payload).toMatchObject({ action: "create", queueIntegration: { id: made.id, apikey: made.apikey } });
    expect(sent[2].payload).toEqual({ action: "delete", integrationId: made.id });
  });

  it("the delivery log: newest first, paged; a test event is written and logged", async () => {
    const { s } = await admin();
    const made = await created(s, webhook({ urlN8N: "http://127.0.0.1:9/never" }));
    const empty = await call(s, "GET", `/queueIntegration/${made.id}/deliveries`);
    expect(empty.json()).toEqual({ deliveries: [], hasMore: false });
    const test = await call(s, "POST", `/queueIntegration/${made.id}/test`);
    expect(test.statusCode, test.body).toBe(201);
    expect(test.json()).toMatchObject({
      event: "test",
      status: "pending",
      attempts: 0,
      webhookId: expect.stringMatching(/^test_/),
    });
    const log = await call(s, "GET", `/queueIntegration/${made.id}/deliveries?pageNumber=1`);
    expect(log.json().deliveries[0]).toMatchObject({ id: test.json().id, event: "test" });
    expectError(await call(s, "GET", `/queueIntegration/${made.id}/deliveries?pageNumber=0`), 400, "ERR_VALIDATION");
  });
});

describe("outbound URLs", () => {
  it("http(s) only; with private addresses refused: loopback, private, link-local, names that resolve to them", async () => {
    const closed = { integrationsAllowPrivate: false };
    const open = { integrationsAllowPrivate: true };
    await expect(checkOutboundUrl(open, "http://127.0.0.1:8080/x")).resolves.toBeInstanceOf(URL);
    for (const url of [
      "ftp://example.com",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "nota url",
      "http://user:pw@example.com",
    ]) {
      await expect(checkOutboundUrl(open, url), url).rejects.toMatchObject({ code: "ERR_URL_NOT_ALLOWED" });
    }
    for (const url of [
      "http://127.0.0.1/",
      "http://localhost:3000/",
      "http://10.1.2.3/",
      "http://172.20.0.1/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
      "http://localhost./",
    ]) {
      await expect(checkOutboundUrl(closed, url), url).rejects.toMatchObject({ code: "ERR_URL_NOT_ALLOWED" });
    }
    await expect(checkOutboundUrl(closed, "https://93.184.216.34/hook")).resolves.toBeInstanceOf(URL);
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111")).toBe(false);
    expect(isPrivateAddress("fe80::1")).toBe(true);
  });

  it("a company's integration is refused a private address when the install does not allow them", async () => {
    const strict = await getTestApp({ integrationsAllowPrivate: false }, t.database);
    try {
      const c = await buildCompany(strict.app, { plan: { useIntegrations: true } });
      const s = await login(strict.app, c.admin);
      const strictCall = caller(() => strict.app);
      const res = await strictCall(s, "POST", "/queueIntegration", webhook({ urlN8N: "http://127.0.0.1:5678/webhook" }));
      expectError(res, 400, "ERR_URL_NOT_ALLOWED");
      const ok = await strictCall(s, "POST", "/queueIntegration", webhook({ urlN8N: "https://93.184.216.34/webhook" }));
      expect(ok.statusCode).toBe(201);
      const edit = await strictCall(s, "PUT", `/queueIntegration/${ok.json().id}`, webhook({ urlN8N: "http://192.168.0.10/" }));
      expectError(edit, 400, "ERR_URL_NOT_ALLOWED");
    } finally {
      await strict.close();
    }
  });
});
