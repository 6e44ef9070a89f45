import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, settings, users, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type Session, buildCompany, buildPlan, buildUser, login, refreshCookieOf } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

/**
 * Every test that turns the platform switch userCreation lives in this file: it is the main company's
 * setting, so one file owns it and the others never see it change under them.
 */
let t: TestApp;
let sup: Session;
beforeAll(async () => {
  t = await getTestApp();
  const c = await buildCompany(t.app);
  sup = await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true }));
});
afterAll(async () => {
  await setSwitch("disabled");
  await t.close();
});

const call = caller(() => t.app);
const setSwitch = async (value: "enabled" | "disabled") => {
  const res = await call(sup, "PUT", "/settings/userCreation", { value });
  expect(res.statusCode).toBe(200);
};
const form = (planId: number, over: Record<string, unknown> = {}) => ({
  companyName: `Alta ${uid()}`,
  email: `alta-${uid()}@test.charla`,
  phone: "5215512345678",
  planId,
  name: "Dueña Nueva",
  password: "clave-segura",
  ...over,
});
const post = (body: object, remoteAddress = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) =>
  t.app.inject({ method: "POST", url: "/api/v1/auth/signup", payload: body, remoteAddress });
const companyNamed = async (name: string) => (await t.app.charla.db.select().from(companies).where(eq(companies.name, name)))[0];

describe("#signup switch (platform setting userCreation)", () => {
  it("is off by default for a company's admin to see nothing of it; only super users read or change it", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    const keys = (await call(admin, "GET", "/settings")).json().map((x: { key: string }) => x.key);
    expect(keys).not.toContain("userCreation");
    expectError(await call(admin, "PUT", "/settings/userCreation", { value: "enabled" }), 403, "ERR_NO_PERMISSION");
    const supKeys = (await call(sup, "GET", "/settings")).json() as { key: string; value: string }[];
    expect(supKeys.find((x) => x.key === "userCreation")).toBeDefined();
    expectError(await call(sup, "PUT", "/settings/userCreation", { value: "maybe" }), 400, "ERR_INVALID_SETTING_VALUE");
  });

  it("a super user of any company changes the main company's value, which is the one that counts", async () => {
    await setSwitch("enabled");
    const [row] = await t.app.charla.db
      .select()
      .from(settings)
      .where(and(eq(settings.companyId, 1), eq(settings.key, "userCreation")));
    expect(row.value).toBe("enabled");
    const info = await t.app.inject({ method: "GET", url: "/api/v1/auth/signup" });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ enabled: true, trialDays: 7 });
    // another super user sees the same value from their own company
    const other = await buildCompany(t.app);
    const sup2 = await login(t.app, await buildUser(t.app, other.id, { profile: "admin", super: true }));
    const list = (await call(sup2, "GET", "/settings")).json() as { key: string; value: string }[];
    expect(list.find((x) => x.key === "userCreation")?.value).toBe("enabled");
    await setSwitch("disabled");
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/signup" })).json()).toEqual({ enabled: false, trialDays: 7 });
  });

  it("refuses a sign-up with 403 ERR_USER_CREATION_DISABLED while off, and creates nothing", async () => {
    await setSwitch("disabled");
    const plan = await buildPlan(t.app);
    const body = form(plan.id);
    expectError(await post(body), 403, "ERR_USER_CREATION_DISABLED");
    expect(await companyNamed(body.companyName)).toBeUndefined();
  });
});

describe("#signup", () => {
  it("creates the company with a trial, default settings, its admin and a default simulator connection, then logs in", async () => {
    await setSwitch("enabled");
    const plan = await buildPlan(t.app);
    const body = form(plan.id, { email: `Alta-${uid()}@Test.Charla` });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const out = res.json();
    expect(typeof out.token).toBe("string");
    expect(out.user).toMatchObject({ name: "Dueña Nueva", profile: "admin", super: false, email: body.email.toLowerCase() });
    expect(refreshCookieOf(res.headers["set-cookie"])).toMatch(/^charla_rt=./);
    const company = await companyNamed(body.companyName);
    expect(company).toMatchObject({ planId: plan.id, status: true, phone: "5215512345678" });
    expect(out.user.companyId).toBe(company.id);
    const trialEnd = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    expect([trialEnd, new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10)]).toContain(company.dueDate);
    // the token works, and the session is the login's (the refresh cookie renews it)
    const s = { token: out.token as string };
    const me = (await call(s, "GET", "/auth/me")).json();
    expect(me).toMatchObject({ companyId: company.id, profile: "admin" });
    const refreshed = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/refresh_token",
      headers: { cookie: refreshCookieOf(res.headers["set-cookie"]) },
    });
    expect(refreshed.statusCode).toBe(200);
    const list = (await call(s, "GET", "/settings")).json() as { key: string }[];
    expect(list.map((x) => x.key)).toContain("userRating");
    const conns = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.companyId, company.id));
    expect(conns).toMatchObject([{ name: "Simulador", provider: "simulator", isDefault: true }]);
    // the simulator starts at once, as a new simulator connection does
    await expect
      .poll(async () => (await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, conns[0].id)))[0].status)
      .toBe("CONNECTED");
    // the password was stored hashed (argon2id) and works for a later login
    const [admin] = await t.app.charla.db.select().from(users).where(eq(users.companyId, company.id));
    expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await login(t.app, { email: body.email }, body.password)).companyId).toBe(company.id);
  });

  it("the trial's length comes from SIGNUP_TRIAL_DAYS (config signupTrialDays)", async () => {
    await setSwitch("enabled");
    const t2 = await getTestApp({ signupTrialDays: 30 });
    try {
      expect((await t2.app.inject({ method: "GET", url: "/api/v1/auth/signup" })).json()).toEqual({
        enabled: true,
        trialDays: 30,
      });
      const plan = await buildPlan(t2.app);
      const body = form(plan.id);
      const res = await t2.app.inject({ method: "POST", url: "/api/v1/auth/signup", payload: body, remoteAddress: "10.30.0.1" });
      expect(res.statusCode).toBe(201);
      const [company] = await t2.app.charla.db.select().from(companies).where(eq(companies.name, body.companyName));
      const days = (Date.parse(company.dueDate ?? "") - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(29);
      expect(days).toBeLessThanOrEqual(30);
    } finally {
      await t2.close();
    }
  });

  it("an unknown plan answers 404 ERR_NO_PLAN_FOUND", async () => {
    await setSwitch("enabled");
    const body = form(2_000_000_000);
    expectError(await post(body), 404, "ERR_NO_PLAN_FOUND");
    expect(await companyNamed(body.companyName)).toBeUndefined();
  });

  it("a taken company name or email answers its code and leaves nothing half-written", async () => {
    await setSwitch("enabled");
    const existing = await buildCompany(t.app);
    const plan = await buildPlan(t.app);
    const taken = form(plan.id, { companyName: existing.name });
    expectError(await post(taken), 409, "ERR_COMPANY_NAME_EXISTS");
    expect(await t.app.charla.db.select().from(users).where(eq(users.email, taken.email))).toEqual([]);

    const sameEmail = form(plan.id, { email: existing.admin.email.toUpperCase() });
    expectError(await post(sameEmail), 409, "ERR_EMAIL_ALREADY_EXISTS");
    expect(await companyNamed(sameEmail.companyName)).toBeUndefined();
    // both are free again for a valid sign-up
    expect((await post({ ...sameEmail, email: `libre-${uid()}@test.charla` })).statusCode).toBe(201);
  });

  it("refuses an invalid form with 400 ERR_VALIDATION", async () => {
    await setSwitch("enabled");
    const plan = await buildPlan(t.app);
    for (const bad of [
      form(plan.id, { email: "no-es-correo" }),
      form(plan.id, { password: "123" }),
      form(plan.id, { companyName: "" }),
      form(plan.id, { name: "x" }),
    ])
      expectError(await post(bad), 400, "ERR_VALIDATION");
  });
});

describe("#signup rate limit", () => {
  it("is limited per IP with the login's limits (LOGIN_MAX_PER_IP within LOGIN_WINDOW_SEC): 429 after the maximum", async () => {
    const t2 = await getTestApp({ loginMaxPerIp: 3 });
    try {
      const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const send = () =>
        t2.app.inject({ method: "POST", url: "/api/v1/auth/signup", payload: form(2_000_000_000), remoteAddress: ip });
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).not.toBe(429);
      expectError(await send(), 429, "ERR_RATE_LIMITED");
      // another address is not held back
      const other = await t2.app.inject({
        method: "POST",
        url: "/api/v1/auth/signup",
        payload: form(2_000_000_000),
        remoteAddress: `10.78.${Math.floor(Math.random() * 250)}.1`,
      });
      expect(other.statusCode).not.toBe(429);
    } finally {
      await t2.close();
    }
  });
});
