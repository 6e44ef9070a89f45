import { randomBytes } from "node:crypto";
import { SettingDefinitions, companySettingKeys as settingKeys } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { caller, expectError, uid } from "../../test/http.js";
import { type Session, as, buildCompany, buildPlan, buildQueue, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { multipart } from "../../test/multipart.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
/** A company with a super admin session (the company's own plain admin is `c.admin`). */
async function superSession() {
  const c = await buildCompany(t.app);
  const sup = await buildUser(t.app, c.id, { profile: "admin", super: true });
  return { c, s: await login(t.app, sup) };
}
const companyForm = (planId: number, over: Record<string, unknown> = {}) => ({
  name: `Nueva ${uid()}`,
  email: `dueno-${uid()}@test.charla`,
  password: "clave-123",
  planId,
  ...over,
});
const listNames = async (s: Session) =>
  (await call(s, "GET", "/companies/list")).json().map((c: { name: string }) => c.name) as string[];
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
const postLogo = (s: Session, id: number, body: ReturnType<typeof multipart>) =>
  as(t.app, s, { method: "POST", url: `/api/v1/companies/${id}/logo`, ...body });

describe("#plans", () => {
  it("GET /plans/list needs no login", async () => {
    const plan = await buildPlan(t.app);
    const res = await t.app.inject({ method: "GET", url: "/api/v1/plans/list" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual(expect.objectContaining({ id: plan.id, name: plan.name }));
  });

  it("a super user creates, reads, updates and deletes a plan", async () => {
    const { s } = await superSession();
    const name = `Plan ${uid()}`;
    const made = await call(s, "POST", "/plans", { name, users: 5, value: "49,90" });
    expect(made.statusCode).toBe(201);
    const plan = made.json();
    expect(plan).toMatchObject({ name, users: 5, connections: 1, queues: 10, useCampaigns: true, useOpenAi: false });
    expect(Number(plan.value)).toBe(49.9);
    expect((await call(s, "GET", `/plans/${plan.id}`)).json()).toEqual(plan);
    expect((await call(s, "GET", "/plans")).json()).toContainEqual(plan);
    const upd = await call(s, "PUT", `/plans/${plan.id}`, { name, users: 8, useOpenAi: true });
    expect(upd.json()).toMatchObject({ id: plan.id, users: 8, useOpenAi: true });
    expect((await call(s, "DELETE", `/plans/${plan.id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/plans/${plan.id}`), 404, "ERR_NO_PLAN_FOUND");
  });

  it("a non-super admin gets 403 on plan management", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    for (const [method, url, body] of [
      ["GET", "/plans", undefined],
      ["GET", `/plans/${c.planId}`, undefined],
      ["POST", "/plans", { name: `Plan ${uid()}` }],
      ["PUT", `/plans/${c.planId}`, { name: `Plan ${uid()}` }],
      ["DELETE", `/plans/${c.planId}`, undefined],
    ] as const) {
      expectError(await call(s, method, url, body), 403, "ERR_NO_PERMISSION");
    }
  });

  it("refuses to delete a plan in use (409) and answers 404 for an unknown plan", async () => {
    const { c, s } = await superSession();
    expectError(await call(s, "DELETE", `/plans/${c.planId}`), 409, "ERR_PLAN_IN_USE");
    const missing = 2_000_000_000;
    expectError(await call(s, "GET", `/plans/${missing}`), 404, "ERR_NO_PLAN_FOUND");
    expectError(await call(s, "PUT", `/plans/${missing}`, { name: `Plan ${uid()}` }), 404, "ERR_NO_PLAN_FOUND");
    expectError(await call(s, "DELETE", `/plans/${missing}`), 404, "ERR_NO_PLAN_FOUND");
  });

  it("refuses a duplicate plan name with 409 ERR_PLAN_NAME_EXISTS", async () => {
    const { s } = await superSession();
    const name = `Plan ${uid()}`;
    expect((await call(s, "POST", "/plans", { name })).statusCode).toBe(201);
    expectError(await call(s, "POST", "/plans", { name }), 409, "ERR_PLAN_NAME_EXISTS");
  });
});

describe("#companies.create", () => {
  it("creates the company with default settings and a first admin who can log in", async () => {
    const { c, s } = await superSession();
    const form = companyForm(c.planId, { email: `Dueno-${uid()}@Test.Charla` });
    const res = await call(s, "POST", "/companies", form);
    expect(res.statusCode).toBe(201);
    const company = res.json();
    expect(company).toMatchObject({ name: form.name, planId: c.planId, status: true, plan: { id: c.planId } });
    expect(await listNames(s)).toContain(form.name);
    const admin = await login(t.app, { email: form.email }, form.password);
    expect(admin.companyId).toBe(company.id);
    const me = (await call(admin, "GET", "/auth/me")).json();
    expect(me).toMatchObject({ profile: "admin", super: false, email: form.email.toLowerCase() });
    const settings = (await call(admin, "GET", "/settings")).json() as { key: string; value: string }[];
    expect(settings.map((x) => x.key).sort()).toEqual([...settingKeys].sort());
    for (const x of settings) expect(x.value, x.key).toBe(SettingDefinitions[x.key as keyof typeof SettingDefinitions].default);
  });

  it("refuses a duplicate company name (409 ERR_COMPANY_NAME_EXISTS)", async () => {
    const { c, s } = await superSession();
    expectError(await call(s, "POST", "/companies", companyForm(c.planId, { name: c.name })), 409, "ERR_COMPANY_NAME_EXISTS");
  });

  it("refuses a taken admin email (409) and leaves no company behind", async () => {
    const { c, s } = await superSession();
    const form = companyForm(c.planId, { email: c.admin.email.toUpperCase() });
    expectError(await call(s, "POST", "/companies", form), 409, "ERR_EMAIL_ALREADY_EXISTS");
    expect(await listNames(s)).not.toContain(form.name);
    // the name is still free
    expect((await call(s, "POST", "/companies", { ...form, email: `otro-${uid()}@test.charla` })).statusCode).toBe(201);
  });

  it("answers 404 ERR_NO_PLAN_FOUND for an unknown plan and 403 for a non-super admin", async () => {
    const { c, s } = await superSession();
    expectError(await call(s, "POST", "/companies", companyForm(2_000_000_000)), 404, "ERR_NO_PLAN_FOUND");
    const admin = await login(t.app, c.admin);
    expectError(await call(admin, "POST", "/companies", companyForm(c.planId)), 403, "ERR_NO_PERMISSION");
    expectError(await call(admin, "GET", "/companies/list"), 403, "ERR_NO_PERMISSION");
  });
});

describe("#companies read, update and delete", () => {
  it("an admin reads its own company; another company answers 404 unless super", async () => {
    const { c, s: sup } = await superSession();
    const other = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    expect((await call(admin, "GET", `/companies/${c.id}`)).json()).toMatchObject({ id: c.id, name: c.name });
    expectError(await call(admin, "GET", `/companies/${other.id}`), 404, "ERR_NO_COMPANY_FOUND");
    expect((await call(sup, "GET", `/companies/${other.id}`)).json()).toMatchObject({ id: other.id, name: other.name });
  });

  it("only a super user updates a company", async () => {
    const { c, s: sup } = await superSession();
    const other = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    expectError(await call(admin, "PUT", `/companies/${c.id}`, { pageTitle: "Mío" }), 403, "ERR_NO_PERMISSION");
    const res = await call(sup, "PUT", `/companies/${other.id}`, { pageTitle: "Soporte", primaryColor: "#123456" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: other.id, pageTitle: "Soporte", primaryColor: "#123456", name: other.name });
    expectError(await call(sup, "PUT", "/companies/2000000000", { pageTitle: "x" }), 404, "ERR_NO_COMPANY_FOUND");
  });

  it("deletes a company with its users, whose login and session then fail", async () => {
    const { s: sup } = await superSession();
    const victim = await buildCompany(t.app);
    const victimSession = await login(t.app, victim.admin);
    expect((await call(sup, "DELETE", `/companies/${victim.id}`)).statusCode).toBe(204);
    expect(await listNames(sup)).not.toContain(victim.name);
    expectError(await call(sup, "GET", `/companies/${victim.id}`), 404, "ERR_NO_COMPANY_FOUND");
    await expect(login(t.app, victim.admin)).rejects.toThrow(/401/);
    expect((await call(victimSession, "GET", "/auth/me")).statusCode).toBe(401);
    expectError(await call(sup, "DELETE", `/companies/${victim.id}`), 404, "ERR_NO_COMPANY_FOUND");
  });

  it("never deletes the main company (id 1) or the caller's own (ERR_MAIN_COMPANY); admins get 403", async () => {
    const { c, s: sup } = await superSession();
    expectError(await call(sup, "DELETE", "/companies/1"), 400, "ERR_MAIN_COMPANY");
    expectError(await call(sup, "DELETE", `/companies/${c.id}`), 400, "ERR_MAIN_COMPANY");
    expect((await call(sup, "GET", `/companies/${c.id}`)).statusCode).toBe(200);
    const other = await buildCompany(t.app);
    const admin = await login(t.app, other.admin);
    expectError(await call(admin, "DELETE", `/companies/${c.id}`), 403, "ERR_NO_PERMISSION");
  });
});

describe("#companies logo", () => {
  it("the company's admin uploads a PNG; GET serves it as image/png", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    expectError(await call(s, "GET", `/companies/${c.id}/logo`), 404, "ERR_NOT_FOUND");
    // the session says there is none, so the web does not ask for it
    expect((await call(s, "GET", "/auth/me")).json().company.logo).toBe(false);
    const res = await postLogo(s, c.id, multipart("logo", "logo.png", "image/png", PNG));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id });
    expect((await call(s, "GET", "/auth/me")).json().company.logo).toBe(true);
    const img = await call(s, "GET", `/companies/${c.id}/logo`);
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toMatch(/^image\/png/);
    expect(img.rawPayload.equals(PNG)).toBe(true);
  });

  it("refuses a JPEG (400 ERR_INVALID_FILE_TYPE), a `user` (403) and another company's admin (404)", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    expectError(await postLogo(s, c.id, multipart("logo", "logo.png", "image/png", JPEG)), 400, "ERR_INVALID_FILE_TYPE");
    const user = await login(t.app, await buildUser(t.app, c.id));
    expectError(await postLogo(user, c.id, multipart("logo", "logo.png", "image/png", PNG)), 403, "ERR_NO_PERMISSION");
    const other = await login(t.app, (await buildCompany(t.app)).admin);
    expectError(await postLogo(other, c.id, multipart("logo", "l.png", "image/png", PNG)), 404, "ERR_NO_COMPANY_FOUND");
    expectError(await call(s, "GET", `/companies/${c.id}/logo`), 404, "ERR_NOT_FOUND");
  });
});

describe("#queue and #whatsapp pickers", () => {
  it("list only the caller's company rows", async () => {
    const a = await buildCompany(t.app);
    const b = await buildCompany(t.app);
    const qa = await buildQueue(t.app, a.id);
    await buildQueue(t.app, b.id);
    const wa = await buildWhatsapp(t.app, a.id, { isDefault: true });
    await buildWhatsapp(t.app, b.id);
    const s = await login(t.app, await buildUser(t.app, a.id));
    const queues = (await call(s, "GET", "/queue")).json();
    expect(queues).toEqual([expect.objectContaining({ id: qa.id, name: qa.name, color: qa.color })]);
    const conns = (await call(s, "GET", "/whatsapp")).json();
    expect(conns).toEqual([
      expect.objectContaining({ id: wa.id, name: wa.name, provider: wa.provider, status: wa.status, isDefault: true }),
    ]);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/queue" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/whatsapp" })).statusCode).toBe(401);
  });
});
