import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorDriver } from "../../channels/simulator/driver.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildContact, buildMessage, buildTicket, buildWhatsapp, login } from "../../test/factories.js";
import { caller } from "../../test/http.js";

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

describe("#openapi document", () => {
  let doc: Doc;
  beforeAll(async () => {
    const res = await t.app.inject({ url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it("is OpenAPI 3.1 with the four external paths, each behind the bearer scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([...PATHS].sort());
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
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const check = <R extends { statusCode: number; json: () => unknown }>(method: string, path: string, res: R): R => {
      const responses = doc.paths[path][method].responses;
      const entry = responses[String(res.statusCode)] ?? responses[`${String(res.statusCode)[0]}XX`];
      expect(entry, `${method} ${path} ${res.statusCode} is documented`).toBeDefined();
      const schema = entry.content?.["application/json"]?.schema as Schema;
      const validate = ajv.compile({ ...schema, components: doc.components });
      const ok = validate(res.json());
      expect(ok, `${method} ${path} ${res.statusCode}: ${JSON.stringify(validate.errors)}`).toBe(true);
      return res;
    };

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

  it("has a readable page of the document", async () => {
    const res = await t.app.inject({ url: "/api/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    for (const path of PATHS) expect(res.body).toContain(path);
    expect(res.body).not.toContain("<script");
  });
});
