import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsapps } from "../../db/schema/index.js";
import { maskSecret } from "../../lib/secret-box.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";
import { eventListener } from "../../test/events.js";
import { buildUser, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";

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
const listen = eventListener(() => t.app);
const rowOf = async (id: number) => (await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0];

const form = (over: Record<string, unknown> = {}) => ({
  name: `Oficial ${uid()}`,
  number: "5511900000000",
  provider: "cloud",
  phoneNumberId: fake.phoneNumberId,
  businessAccountId: fake.businessAccountId,
  accessToken: fake.accessToken,
  appSecret: `app-secret-${uid()}`,
  verifyToken: `verify-${uid()}`,
  ...over,
});

describe("Cloud API connection settings", () => {
  it("creates one with its secrets sealed, shown masked, a webhook URL to paste and the status of its test call", async () => {
    const w = await scenario(t.app, { connection: false });
    const body = form();
    const events = listen();
    const res = await call(w.admin, "POST", "/whatsapp", body);
    expect(res.statusCode, res.body).toBe(201);
    const view = res.json();
    // the company's pages hear of it after its test call, the URL as absolute as the answer's; its
    // settings only to those who manage connections
    await t.app.charla.events.idle();
    const told = events.events.filter((e) => e.event === Events.whatsapp(w.companyId));
    const whole = told.filter((e) => (e.payload as { whatsapp: { cloud?: unknown } }).whatsapp.cloud);
    expect(whole.at(-1)?.payload).toMatchObject({
      action: "update",
      whatsapp: { status: "CONNECTED", webhookUrl: view.webhookUrl },
    });
    for (const e of told) expect(JSON.stringify(e.payload)).not.toContain(body.appSecret);
    expect(told.some((e) => !Object.hasOwn((e.payload as { whatsapp: object }).whatsapp, "cloud"))).toBe(true);
    const digits = fake.displayPhoneNumber.replace(/\D/g, "");
    expect(view).toMatchObject({
      provider: "cloud",
      status: "CONNECTED",
      statusReason: "",
      number: digits,
      cloud: {
        phoneNumberId: fake.phoneNumberId,
        businessAccountId: fake.businessAccountId,
        accessToken: maskSecret(fake.accessToken),
        appSecret: maskSecret(body.appSecret),
        verifyToken: maskSecret(body.verifyToken),
        hasAccessToken: true,
        hasAppSecret: true,
        hasVerifyToken: true,
        templateName: "",
      },
    });
    // absolute, from the request's address when no PUBLIC_URL is set
    expect(view.webhookUrl).toMatch(/^http:\/\/localhost(:\d+)?\/api\/whatsapp-cloud\/webhook\/[\w-]{20,}$/);
    expect(view.cloud.webhookUrl).toBe(view.webhookUrl);
    for (const secret of [fake.accessToken, body.appSecret, body.verifyToken]) expect(res.body).not.toContain(secret);
    // the probe used the saved token against the phone number's id
    expect(
      fake.requests.some((r) => r.path.endsWith(`/${fake.phoneNumberId}`) && r.authorization === `Bearer ${fake.accessToken}`),
    ).toBe(true);

    const row = await rowOf(view.id);
    expect(row.cloudAccessTokenSealed).not.toContain(fake.accessToken);
    expect(t.app.charla.secrets.open(row.cloudAccessTokenSealed)).toBe(fake.accessToken);
    expect(t.app.charla.secrets.open(row.cloudAppSecretSealed)).toBe(body.appSecret);
    expect(t.app.charla.secrets.open(row.cloudVerifyTokenSealed)).toBe(body.verifyToken);
    expect(view.webhookUrl.endsWith(`/${row.cloudWebhookKey}`)).toBe(true);

    // the list and a single read show the same, secrets never whole
    const one = await call(w.admin, "GET", `/whatsapp/${view.id}`);
    expect(one.json()).toMatchObject({ cloud: { accessToken: maskSecret(fake.accessToken) }, webhookUrl: view.webhookUrl });
    const list = await call(w.admin, "GET", "/whatsapp");
    expect(list.body).not.toContain(body.appSecret);
    expect(list.json().find((c: { id: number }) => c.id === view.id).webhookUrl).toBe(view.webhookUrl);
  });

  it("requires both ids and the three secrets on a new connection, and records nothing without them", async () => {
    const w = await scenario(t.app, { connection: false });
    const res = await call(w.admin, "POST", "/whatsapp", {
      ...form(),
      phoneNumberId: "",
      businessAccountId: "",
      accessToken: "",
      appSecret: "",
      verifyToken: "",
    });
    expectError(res, 400, "ERR_VALIDATION");
    expect(
      res
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["accessToken", "appSecret", "businessAccountId", "phoneNumberId", "verifyToken"].sort());
    const list = await call(w.admin, "GET", "/whatsapp");
    expect(list.json()).toEqual([]);
    // a template named without its language is refused too
    const template = await call(w.admin, "POST", "/whatsapp", form({ templateName: "seguimiento" }));
    expectError(template, 400, "ERR_VALIDATION");
    expect(template.json().issues).toEqual([expect.objectContaining({ path: "templateLanguage" })]);
  });

  it("keeps the stored secrets and webhook key on an edit that leaves them blank; a new refused token shows why", async () => {
    const w = await scenario(t.app, { connection: false });
    const body = form();
    const created = (await call(w.admin, "POST", "/whatsapp", body)).json();
    const before = await rowOf(created.id);

    const edited = await call(w.admin, "PUT", `/whatsapp/${created.id}`, {
      ...body,
      isDefault: true,
      accessToken: "",
      appSecret: "",
      verifyToken: "",
      templateName: "seguimiento",
      templateLanguage: "es",
      templateParams: ["{{firstName}}", " {{protocol}} "],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      status: "CONNECTED",
      webhookUrl: created.webhookUrl,
      cloud: {
        hasAccessToken: true,
        appSecret: maskSecret(body.appSecret),
        templateName: "seguimiento",
        templateLanguage: "es",
        templateParams: ["{{firstName}}", "{{protocol}}"],
      },
    });
    const kept = await rowOf(created.id);
    expect(kept).toMatchObject({
      cloudAccessTokenSealed: before.cloudAccessTokenSealed,
      cloudAppSecretSealed: before.cloudAppSecretSealed,
      cloudVerifyTokenSealed: before.cloudVerifyTokenSealed,
      cloudWebhookKey: before.cloudWebhookKey,
    });

    // a token Meta refuses: saved (it is what the admin typed), DISCONNECTED with the reason
    const refused = await call(w.admin, "PUT", `/whatsapp/${created.id}`, {
      ...body,
      isDefault: true,
      accessToken: "EAAG-revoked",
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ status: "DISCONNECTED", statusReason: "ERR_CLOUD_AUTH" });
    expect(refused.body).not.toContain("EAAG-revoked");
    expect(t.app.charla.secrets.open((await rowOf(created.id)).cloudAccessTokenSealed)).toBe("EAAG-revoked");

    // the right one again: connected, the reason gone
    const fixed = await call(w.admin, "PUT", `/whatsapp/${created.id}`, { ...body, isDefault: true });
    expect(fixed.json()).toMatchObject({ status: "CONNECTED", statusReason: "" });
  });

  it("refuses a fallback template Meta does not list as approved, or given the wrong number of parameters, changing nothing", async () => {
    const w = await scenario(t.app, { connection: false });
    const body = form();
    const created = (await call(w.admin, "POST", "/whatsapp", body)).json();
    const before = await rowOf(created.id);
    const save = (over: object) => call(w.admin, "PUT", `/whatsapp/${created.id}`, { ...body, isDefault: true, ...over });
    const params = await save({ templateName: "seguimiento", templateLanguage: "es", templateParams: ["{{firstName}}"] });
    expectError(params, 400, "ERR_CLOUD_TEMPLATE_PARAMS");
    expect(params.json().data).toEqual({ count: 2 });
    expectError(await save({ templateName: "no_existe", templateLanguage: "es" }), 404, "ERR_CLOUD_TEMPLATE_NOT_FOUND");
    expectError(
      await save({ templateName: "seguimiento", templateLanguage: "en_US", templateParams: ["a", "b"] }),
      404,
      "ERR_CLOUD_TEMPLATE_NOT_FOUND",
    );
    expect(await rowOf(created.id)).toMatchObject({ cloudTemplateName: "", updatedAt: before.updatedAt });
    // a new connection too: nothing is recorded
    expectError(
      await call(w.admin, "POST", "/whatsapp", form({ templateName: "no_existe", templateLanguage: "es" })),
      404,
      "ERR_CLOUD_TEMPLATE_NOT_FOUND",
    );
    expect((await call(w.admin, "GET", "/whatsapp")).json()).toHaveLength(1);
    // a token Meta refuses cannot list them: saved, and the test call tells why
    const refused = await save({ accessToken: "EAAG-otro", templateName: "no_existe", templateLanguage: "es" });
    expect(refused.json()).toMatchObject({
      status: "DISCONNECTED",
      statusReason: "ERR_CLOUD_AUTH",
      cloud: { templateName: "no_existe" },
    });
  });

  it("shows the Cloud API settings only to those who manage connections, and never to another company", async () => {
    const w = await scenario(t.app, { connection: false });
    const created = (await call(w.admin, "POST", "/whatsapp", form())).json();
    const agent = await buildUser(t.app, w.companyId, { profile: "user" });
    const seen = await call(await login(t.app, agent), "GET", `/whatsapp/${created.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).not.toHaveProperty("cloud");
    expect(seen.json()).not.toHaveProperty("webhookUrl");

    const other = await scenario(t.app, { connection: false });
    expectError(await call(other.admin, "GET", `/whatsapp/${created.id}`), 404, "ERR_NO_WAPP_FOUND");
    expectError(await call(other.admin, "PUT", `/whatsapp/${created.id}`, form()), 404, "ERR_NO_WAPP_FOUND");
    expect((await rowOf(created.id)).name).toBe(created.name);
  });

  it("gives other providers no Cloud API settings, and leaves their Cloud columns empty", async () => {
    const w = await scenario(t.app, { connection: false });
    const res = await call(w.admin, "POST", "/whatsapp", { ...form(), provider: "beta" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ provider: "beta", cloud: null });
    expect(res.json()).not.toHaveProperty("webhookUrl");
    const row = await rowOf(res.json().id);
    expect(row).toMatchObject({ cloudAccessTokenSealed: "", cloudWebhookKey: null, cloudPhoneNumberId: "" });
  });
});
