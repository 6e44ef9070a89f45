import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { cloudConnection } from "../../test/cloud-kit.js";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";
import { buildTicket } from "../../test/factories.js";
import { caller } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { openWindow } from "./window.js";

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

type Schema = Record<string, unknown>;
type Doc = {
  components: Schema;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
};

describe("#openapi the Cloud API's routes", () => {
  it("describes their real answers, success and refusal", async () => {
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json() as Doc;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const check = (method: string, path: string, res: { statusCode: number; json: () => unknown; body: string }) => {
      const responses = doc.paths[path][method].responses;
      const entry = responses[String(res.statusCode)] ?? responses[`${String(res.statusCode)[0]}XX`];
      expect(entry, `${method} ${path} ${res.statusCode} is documented`).toBeDefined();
      const schema = entry.content?.["application/json"]?.schema as Schema;
      const validate = ajv.compile({ ...schema, components: doc.components });
      expect(validate(res.json()), `${method} ${path} ${res.statusCode}: ${JSON.stringify(validate.errors)}`).toBe(true);
      return res;
    };

    const w = await scenario(t.app, { connection: false });
    const wa = await cloudConnection(t.app, w.companyId, fake, { isDefault: true });
    const contact = await w.contact({ name: "Ana" });
    const ticket = await buildTicket(t.app, w.companyId, { contactId: contact.id, whatsappId: wa.id, status: "open" });
    await openWindow(t.app.charla.db, w.companyId, wa.id, contact.number, new Date());

    const list = check("get", "/api/v1/whatsapp/{id}/templates", await call(w.admin, "GET", `/whatsapp/${wa.id}/templates`));
    expect(list.json()).toMatchObject({ templates: expect.arrayContaining([expect.objectContaining({ name: "seguimiento" })]) });
    expect(
      check("get", "/api/v1/whatsapp/{id}/templates", await call(w.admin, "GET", "/whatsapp/999999999/templates")).statusCode,
    ).toBe(404);

    const window = check("get", "/api/v1/tickets/{id}/window", await call(w.admin, "GET", `/tickets/${ticket.id}/window`));
    expect(window.json()).toMatchObject({ applies: true, open: true });
    expect(check("get", "/api/v1/tickets/{id}/window", await call(w.admin, "GET", "/tickets/999999999/window")).statusCode).toBe(
      404,
    );

    const path = "/api/v1/messages/{ticketId}/template";
    const sent = check(
      "post",
      path,
      await call(w.admin, "POST", `/messages/${ticket.id}/template`, {
        name: "seguimiento",
        language: "es",
        params: ["Ana", "7"],
      }),
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ body: "Hola Ana, seguimos con tu consulta 7." });
    const wrong = check(
      "post",
      path,
      await call(w.admin, "POST", `/messages/${ticket.id}/template`, { name: "seguimiento", language: "es" }),
    );
    expect(wrong.json()).toMatchObject({ error: "ERR_CLOUD_TEMPLATE_PARAMS", data: { count: 2 } });
  });
});
