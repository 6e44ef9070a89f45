import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorDriver } from "../../channels/simulator/driver.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildContact, buildMessage, buildQueue, buildTicket, buildWhatsapp, login } from "../../test/factories.js";
import { startFakeOpenAi } from "../../test/fake-openai.js";
import { caller, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);

type Schema = Record<string, unknown>;
type Doc = {
  openapi: string;
  components: { securitySchemes: Record<string, { type: string; scheme: string }>; schemas?: Schema };
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
};

const PATHS = ["/api/messages/send", "/api/shared-contact", "/api/ticket-messages", "/api/list-groups"];
/** The app's own routes documented so far: those issues 30 and 31 added. */
const APP_PATHS = [
  "/api/v1/prompt",
  "/api/v1/prompt/{id}",
  "/api/v1/ia/models",
  "/api/v1/queueIntegration",
  "/api/v1/queueIntegration/{id}",
  "/api/v1/queueIntegration/{id}/deliveries",
  "/api/v1/queueIntegration/{id}/test",
  "/api/v1/whatsapp/{id}/api-token",
  // issue 31 (their real answers: modules/cloud/openapi.test.ts, against the fake Graph API)
  "/api/v1/whatsapp/{id}/templates",
  "/api/v1/tickets/{id}/window",
  "/api/v1/messages/{ticketId}/template",
];

describe("#openapi document", () => {
  let doc: Doc;
  beforeAll(async () => {
    const res = await t.app.inject({ url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  /** Checks a real answer against the document: its status is documented and its body matches. */
  function checker() {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    return <R extends { statusCode: number; body: string; json: () => unknown }>(method: string, path: string, res: R): R => {
      const responses = doc.paths[path][method].responses;
      const entry = responses[String(res.statusCode)] ?? responses[`${String(res.statusCode)[0]}XX`];
      expect(entry, `${method} ${path} ${res.statusCode} is documented`).toBeDefined();
      const schema = entry.content?.["application/json"]?.schema as Schema | undefined;
      if (!schema) {
        expect(res.body, `${method} ${path} ${res.statusCode} has no body`).toBe("");
        return res;
      }
      const validate = ajv.compile({ ...schema, components: doc.components });
      const ok = validate(res.json());
      expect(ok, `${method} ${path} ${res.statusCode}: ${JSON.stringify(validate.errors)}`).toBe(true);
      return res;
    };
  }

  it("is OpenAPI 3.1 with the four external paths behind the token, and the app's documented routes behind a login", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([...PATHS, ...APP_PATHS].sort());
    expect(doc.components.securitySchemes.userAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of APP_PATHS)
      for (const op of Object.values(doc.paths[path])) {
        expect(op.security).toEqual([{ userAuth: [] }]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["4XX"]));
        expect(Object.keys(op.responses).some((status) => status.startsWith("2"))).toBe(true);
      }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const path of PATHS)
      for (const op of Object.values(doc.paths[path])) {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "4XX"]));
      }
    // the send's two forms: JSON text and multipart files
    const send = doc.paths["/api/messages/send"].post as unknown as { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(send.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"]);
  });

  it("describes the real answers of every external route, success and refusal", async () => {
    const check = checker();

    const c = await buildCompany(t.app);
    const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED", isDefault: true });
    const admin = await login(t.app, c.admin);
    const token: string = (await call(admin, "GET", `/whatsapp/${wa.id}/api-token`)).json().apiToken;
    const api = (method: "GET" | "POST", url: string, payload?: object, bearer: string | null = token) =>
      t.app.inject({ method, url, payload, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

    const number = `5215${String(Date.now()).slice(-9)}`;
    const sent = check("post", "/api/messages/send", await api("POST", "/api/messages/send", { number, body: "Hola" }));
    expect(sent.statusCode).toBe(200);
    check("post", "/api/messages/send", await api("POST", "/api/messages/send", { number }));
    check("post", "/api/messages/send", await api("POST", "/api/messages/send", { number, body: "x" }, "wrong"));

    const shared = check(
      "post",
      "/api/shared-contact",
      await api("POST", "/api/shared-contact", { name: "Ana", number: `${number}9` }),
    );
    expect(shared.statusCode).toBe(200);
    check("post", "/api/shared-contact", await api("POST", "/api/shared-contact", { name: "" }));

    const contact = await buildContact(t.app, c.id);
    const ticket = await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: wa.id });
    await buildMessage(t.app, ticket, { body: "Recibido" });
    await buildMessage(t.app, ticket, {
      body: "Con archivo",
      fromMe: true,
      mediaPath: "media/x.png",
      mediaName: "x.png",
      mediaType: "image",
    });
    const page = check("get", "/api/ticket-messages", await api("GET", `/api/ticket-messages?ticketId=${ticket.uuid}`));
    expect(page.json()).toMatchObject({ count: 2 });
    check("get", "/api/ticket-messages", await api("GET", "/api/ticket-messages?ticketId=999999999"));

    const driver = (await t.app.charla.sessions.driverFor(c.id, wa.id)) as SimulatorDriver;
    await driver.receive({ number: "120363000000000777", name: "Soporte", isGroup: true, body: "Hola", mediaType: "chat" });
    const groups = check("get", "/api/list-groups", await api("GET", "/api/list-groups"));
    expect(groups.json().groups).toHaveLength(1);
    check("get", "/api/list-groups", await api("GET", "/api/list-groups", undefined, null));
  });

  it("describes the real answers of the app's documented routes, success and refusal", async () => {
    const check = checker();
    const fake = await startFakeOpenAi({ key: "sk-doc-0123456789", models: ["gpt-4o-mini"] });
    try {
      const c = await buildCompany(t.app, { plan: { useOpenAi: true, useIntegrations: true, useExternalApi: true } });
      const admin = await login(t.app, c.admin);
      const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED" });
      const v1 = async (method: "GET" | "POST" | "PUT" | "DELETE", url: string, doc: string, payload?: object) =>
        check(method.toLowerCase(), doc, await call(admin, method, url, payload));

      const prompt = await v1("POST", "/prompt", "/api/v1/prompt", {
        name: `Asistente ${uid()}`,
        prompt: "Eres el asistente de una tienda.",
        model: "gpt-4o-mini",
        apiKey: "sk-doc-0123456789",
        baseUrl: fake.baseUrl,
        queueId: (await buildQueue(t.app, c.id)).id,
      });
      expect(prompt.statusCode, prompt.body).toBe(201);
      const pid = prompt.json().id as number;
      expect((await v1("GET", "/prompt", "/api/v1/prompt")).json().prompts).toHaveLength(1);
      await v1("GET", `/prompt/${pid}`, "/api/v1/prompt/{id}");
      expect((await v1("PUT", `/prompt/${pid}`, "/api/v1/prompt/{id}", { name: "" })).statusCode).toBe(400);
      expect((await v1("GET", `/ia/models?promptId=${pid}`, "/api/v1/ia/models")).json().models).toEqual([
        { model: "gpt-4o-mini" },
      ]);
      await v1("POST", "/ia/models", "/api/v1/ia/models", { apiKey: "sk-doc-0123456789", baseUrl: fake.baseUrl });
      expect((await v1("DELETE", `/prompt/${pid}`, "/api/v1/prompt/{id}")).statusCode).toBe(200);
      expect((await v1("GET", `/prompt/${pid}`, "/api/v1/prompt/{id}")).statusCode).toBe(404);

      const hook = await v1("POST", "/queueIntegration", "/api/v1/queueIntegration", {
        type: "webhook",
        name: `Hook ${uid()}`,
        urlN8N: `${fake.baseUrl}/hook`,
      });
      expect(hook.statusCode, hook.body).toBe(201);
      const iid = hook.json().id as number;
      await v1("GET", "/queueIntegration", "/api/v1/queueIntegration");
      await v1("PUT", `/queueIntegration/${iid}`, "/api/v1/queueIntegration/{id}", {
        type: "webhook",
        name: `Hook ${uid()}`,
        urlN8N: `${fake.baseUrl}/hook2`,
      });
      expect((await v1("POST", `/queueIntegration/${iid}/test`, "/api/v1/queueIntegration/{id}/test")).statusCode).toBe(201);
      const log = await v1("GET", `/queueIntegration/${iid}/deliveries`, "/api/v1/queueIntegration/{id}/deliveries");
      expect(log.json().deliveries).toHaveLength(1);
      await v1("GET", `/queueIntegration/${iid}`, "/api/v1/queueIntegration/{id}");
      expect((await v1("DELETE", `/queueIntegration/${iid}`, "/api/v1/queueIntegration/{id}")).statusCode).toBe(204);
      expect((await v1("GET", `/queueIntegration/${iid}`, "/api/v1/queueIntegration/{id}")).statusCode).toBe(404);

      const token = await v1("GET", `/whatsapp/${wa.id}/api-token`, "/api/v1/whatsapp/{id}/api-token");
      const rotated = await v1("POST", `/whatsapp/${wa.id}/api-token`, "/api/v1/whatsapp/{id}/api-token");
      expect(rotated.json().apiToken).not.toBe(token.json().apiToken);
      expect((await v1("GET", "/whatsapp/999999999/api-token", "/api/v1/whatsapp/{id}/api-token")).statusCode).toBe(404);
    } finally {
      await fake.close();
    }
  });

  it("has a readable page of the document", async () => {
    const res = await t.app.inject({ url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    for (const path of [...PATHS, ...APP_PATHS]) expect(res.body).toContain(path);
    expect(res.body).not.toContain("<script");
  });
});
