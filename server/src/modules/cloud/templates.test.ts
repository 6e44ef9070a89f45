import { Ack } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudTemplates, messages } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { cloudConnection } from "../../test/cloud-kit.js";
import { type FakeGraph, exampleTemplates, graphTemplate, startFakeGraph } from "../../test/fake-graph.js";
import { buildTicket, buildWhatsapp } from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { filledBody, paramCount, presentTemplate, sendableWithBody } from "./templates.js";

let t: TestApp;
let fake: FakeGraph;
beforeAll(async () => {
  fake = await startFakeGraph();
  t = await getTestApp({ graphApiUrl: fake.baseUrl });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
const call = caller(() => t.app);
const listings = () => fake.requests.filter((r) => r.path.endsWith("/message_templates")).length;

const pending = {
  name: "promo_pendiente",
  language: "es",
  status: "PENDING",
  category: "MARKETING",
  components: [{ type: "BODY", text: "Oferta {{1}}" }],
};

async function cloudWorld() {
  const w = await scenario(t.app, { connection: false, agents: { agent: {} } });
  const wa = await cloudConnection(t.app, w.companyId, fake, { isDefault: true });
  const contact = await w.contact({ name: "Ana María" });
  const ticket = await buildTicket(t.app, w.companyId, {
    contactId: contact.id,
    whatsappId: wa.id,
    status: "open",
    userId: w.agent.id,
  });
  return { ...w, wa, contact, ticket };
}

describe("template texts", () => {
  it("reads the body, its parameter count, header and footer from Meta's components", () => {
    const [hello, seguimiento] = exampleTemplates().map((x) =>
      presentTemplate({ status: "", category: "", components: [], ...x }),
    );
    expect(hello).toMatchObject({
      name: "hello_world",
      params: 0,
      header: "Hello World",
      footer: "WhatsApp Business Platform sample message",
    });
    expect(seguimiento).toMatchObject({ params: 2, body: "Hola {{1}}, seguimos con tu consulta {{2}}.", header: "" });
    expect(hello.sendable).toBe(true);
    expect(paramCount("{{1}} y {{ 3 }}")).toBe(3);
    // body variables are all Charla sends: a file header, a header variable or a button URL variable is more
    expect(sendableWithBody([{ type: "HEADER", format: "IMAGE", example: { header_handle: ["4::aW"] } }])).toBe(false);
    expect(sendableWithBody([{ type: "HEADER", format: "TEXT", text: "Pedido {{1}}" }])).toBe(false);
    expect(
      sendableWithBody([{ type: "BUTTONS", buttons: [{ type: "URL", text: "Ver", url: "https://tienda.test/p/{{1}}" }] }]),
    ).toBe(false);
    expect(
      sendableWithBody([
        { type: "HEADER", format: "TEXT", text: "Hola" },
        { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Sí" }] },
      ]),
    ).toBe(true);
    expect(filledBody("Hola {{1}}, {{2}}", ["Ana", "#7"])).toBe("Hola Ana, #7");
    // an image header has no words to show
    expect(presentTemplate({ ...pending, components: [{ type: "HEADER", format: "IMAGE" }] }).header).toBe("");
  });
});

describe("GET /whatsapp/:id/templates", () => {
  it("lists the business account's templates, cached until refreshed", async () => {
    const w = await cloudWorld();
    fake.setTemplates([...exampleTemplates(), pending]);
    const before = listings();
    const first = await call(w.as.agent, "GET", `/whatsapp/${w.wa.id}/templates`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().templates).toEqual([
      expect.objectContaining({ name: "hello_world", language: "en_US", status: "APPROVED", params: 0 }),
      expect.objectContaining({ name: "promo_pendiente", status: "PENDING", params: 1 }),
      expect.objectContaining({
        name: "seguimiento",
        language: "es",
        category: "UTILITY",
        body: "Hola {{1}}, seguimos con tu consulta {{2}}.",
        params: 2,
      }),
    ]);
    expect(listings()).toBe(before + 1);
    const cached = await t.app.charla.db.select().from(cloudTemplates).where(eq(cloudTemplates.whatsappId, w.wa.id));
    expect(cached).toHaveLength(3);

    // Meta changes its list: the cache answers until asked to refresh
    fake.setTemplates(exampleTemplates().slice(1));
    const second = await call(w.as.agent, "GET", `/whatsapp/${w.wa.id}/templates`);
    expect(second.json()).toEqual(first.json());
    expect(listings()).toBe(before + 1);
    const refreshed = await call(w.as.agent, "GET", `/whatsapp/${w.wa.id}/templates?refresh=1`);
    expect(refreshed.json().templates.map((x: { name: string }) => x.name)).toEqual(["seguimiento"]);
    expect(listings()).toBe(before + 2);
    expect(await t.app.charla.db.select().from(cloudTemplates).where(eq(cloudTemplates.whatsappId, w.wa.id))).toHaveLength(1);
    fake.setTemplates(exampleTemplates());
  });

  it("is refused for a connection that is not a Cloud API one, and not found for another company's", async () => {
    const w = await cloudWorld();
    const web = await buildWhatsapp(t.app, w.companyId, { provider: "beta" });
    expectError(await call(w.admin, "GET", `/whatsapp/${web.id}/templates`), 400, "ERR_CLOUD_NOT_A_CLOUD_CONNECTION");
    const other = await scenario(t.app, { connection: false });
    expectError(await call(other.admin, "GET", `/whatsapp/${w.wa.id}/templates`), 404, "ERR_NO_WAPP_FOUND");
  });

  it("answers Meta's refusal as its catalogue code", async () => {
    const w = await cloudWorld();
    fake.failNext(400, { code: 100, message: "Invalid parameter" });
    const res = await call(w.admin, "GET", `/whatsapp/${w.wa.id}/templates?refresh=true`);
    expectError(res, 502, "ERR_CLOUD_API");
    expect(res.json().message).toContain("Invalid parameter");
  });
});

describe("POST /messages/:ticketId/template", () => {
  it("sends an approved template with its variables, recorded first with its text filled, even with the window closed", async () => {
    const w = await cloudWorld();
    const from = fake.sent().length;
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}/template`, {
      name: "seguimiento",
      language: "es",
      params: ["Ana", "#1234"],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ body: "Hola Ana, seguimos con tu consulta #1234.", fromMe: true, mediaType: "chat" });
    expect(res.json().ack).toBeGreaterThanOrEqual(Ack.pending);
    const sent = fake.sent().slice(from);
    expect(sent).toEqual([
      expect.objectContaining({
        to: w.contact.number,
        type: "template",
        template: graphTemplate("seguimiento", "es", ["Ana", "#1234"]),
      }),
    ]);
    const [row] = await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id));
    expect(row).toMatchObject({
      body: "Hola Ana, seguimos con tu consulta #1234.",
      userId: w.agent.id,
      channelId: sent[0].answeredId,
    });
  });

  it("refuses a template that is not approved, unknown or given the wrong number of variables, recording nothing", async () => {
    const w = await cloudWorld();
    fake.setTemplates([...exampleTemplates(), pending]);
    const from = fake.sent().length;
    const send = (body: object) => call(w.as.agent, "POST", `/messages/${w.ticket.id}/template`, body);
    expectError(await send({ name: "seguimiento", language: "es", params: ["Ana"] }), 400, "ERR_CLOUD_TEMPLATE_PARAMS");
    expect((await send({ name: "seguimiento", language: "es", params: [] })).json().message).toContain("2");
    expectError(await send({ name: "seguimiento", language: "pt_BR", params: ["a", "b"] }), 404, "ERR_CLOUD_TEMPLATE_NOT_FOUND");
    expectError(await send({ name: "promo_pendiente", language: "es", params: ["x"] }), 404, "ERR_CLOUD_TEMPLATE_NOT_FOUND");
    expectError(await send({ name: "", language: "es" }), 400, "ERR_VALIDATION");
    expect(fake.sent().length).toBe(from);
    expect(await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id))).toEqual([]);
    fake.setTemplates(exampleTemplates());
  });

  it("lists a template with a file header as not sendable and refuses to send it, recording nothing", async () => {
    const w = await cloudWorld();
    const promo = {
      name: "promo_imagen",
      language: "es",
      status: "APPROVED",
      category: "MARKETING",
      components: [
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Descuento para {{1}}" },
      ],
    };
    fake.setTemplates([...exampleTemplates(), promo]);
    try {
      const list = await call(w.as.agent, "GET", `/whatsapp/${w.wa.id}/templates?refresh=1`);
      expect(list.json().templates).toContainEqual(expect.objectContaining({ name: "promo_imagen", sendable: false }));
      const from = fake.sent().length;
      const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}/template`, {
        name: "promo_imagen",
        language: "es",
        params: ["Ana"],
      });
      expectError(res, 400, "ERR_CLOUD_TEMPLATE_UNSUPPORTED");
      expect(fake.sent().length).toBe(from);
      expect(await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id))).toEqual([]);
    } finally {
      fake.setTemplates(exampleTemplates());
    }
  });

  it("keeps a template Meta refuses as a failed message with the reason", async () => {
    const w = await cloudWorld();
    // the listing cached first: the refusal is the send's
    expect((await call(w.as.agent, "GET", `/whatsapp/${w.wa.id}/templates`)).statusCode).toBe(200);
    fake.failNext(400, { code: 132001, message: "Template name does not exist in the translation" });
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}/template`, { name: "hello_world", language: "en_US" });
    expectError(res, 502, "ERR_CLOUD_TEMPLATE_REJECTED");
    const [row] = await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id));
    expect(row).toMatchObject({ ack: Ack.failed, ackError: "ERR_CLOUD_TEMPLATE_REJECTED" });
  });

  it("is refused on a ticket of a connection without templates, and not found for another company", async () => {
    const w = await cloudWorld();
    const web = await buildWhatsapp(t.app, w.companyId, { provider: "simulator", status: "CONNECTED" });
    const ticket = await buildTicket(t.app, w.companyId, {
      contactId: w.contact.id,
      whatsappId: web.id,
      status: "open",
      userId: w.agent.id,
    });
    expectError(
      await call(w.as.agent, "POST", `/messages/${ticket.id}/template`, { name: "hello_world", language: "en_US" }),
      400,
      "ERR_CLOUD_NOT_A_CLOUD_CONNECTION",
    );
    const other = await scenario(t.app, { connection: false });
    expectError(
      await call(other.admin, "POST", `/messages/${w.ticket.id}/template`, { name: "hello_world", language: "en_US" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
  });
});
