import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { LOGO_MAX_BYTES } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companies, settings, users, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type Session, as, buildCompany, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";
import { multipart } from "../../test/multipart.js";
import { badMultiparts } from "../../test/walks/uploads.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);

async function superSession() {
  const c = await buildCompany(t.app);
  return { c, s: await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true })) };
}
const settingOf = async (companyId: number, key: string) =>
  (
    await t.app.charla.db
      .select()
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
  )[0]?.value;
const billing = {
  billingName: "Comercial Uno SA de CV",
  addressZipCode: "06600",
  addressStreet: "Av. Reforma 222",
  addressState: "CDMX",
  addressCity: "Ciudad de México",
  addressDistrict: "Juárez",
};
const companyDir = (id: number) => join(t.config.dataDir, "files", `company${id}`);
const upload = (s: Session, headers: Record<string, string>, body: ReturnType<typeof multipart>) =>
  as(t.app, s, { method: "POST", url: "/api/v1/uploadfile", payload: body.payload, headers: { ...body.headers, ...headers } });

describe("#companies fields", () => {
  it("create and update take every billing field and campaignsEnabled, kept as the company's setting", async () => {
    const { c, s } = await superSession();
    const name = `Facturada ${uid()}`;
    const made = await call(s, "POST", "/companies", {
      name,
      email: `f-${uid()}@test.charla`,
      password: "clave-123",
      planId: c.planId,
      campaignsEnabled: true,
      ...billing,
    });
    expect(made.statusCode).toBe(201);
    const company = made.json();
    expect(company).toMatchObject({ name, campaignsEnabled: true, logo: false, timeZone: "America/Noronha", ...billing });
    expect(await settingOf(company.id, "campaignsEnabled")).toBe("enabled");

    const upd = await call(s, "PUT", `/companies/${company.id}`, { campaignsEnabled: false, addressCity: "Puebla" });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ campaignsEnabled: false, addressCity: "Puebla", billingName: billing.billingName });
    expect(await settingOf(company.id, "campaignsEnabled")).toBe("disabled");

    // the view reads the setting: "true" (older installs) counts as on, in every listing
    await t.app.charla.db
      .update(settings)
      .set({ value: "true" })
      .where(and(eq(settings.companyId, company.id), eq(settings.key, "campaignsEnabled")));
    expect((await call(s, "GET", `/companies/${company.id}`)).json().campaignsEnabled).toBe(true);
    const all = (await call(s, "GET", "/companies/list")).json() as { id: number; campaignsEnabled: boolean }[];
    expect(all.find((x) => x.id === company.id)?.campaignsEnabled).toBe(true);
    const page = (await call(s, "GET", `/companies?searchParam=${encodeURIComponent(name)}&pageNumber=1`)).json();
    expect(page.companies).toMatchObject([{ id: company.id, campaignsEnabled: true, ...billing, addressCity: "Puebla" }]);
  });

  it("a duplicate name on update answers 409 ERR_COMPANY_NAME_EXISTS and changes nothing", async () => {
    const { s } = await superSession();
    const a = await buildCompany(t.app);
    const b = await buildCompany(t.app);
    expectError(
      await call(s, "PUT", `/companies/${b.id}`, { name: a.name, campaignsEnabled: true }),
      409,
      "ERR_COMPANY_NAME_EXISTS",
    );
    expect((await call(s, "GET", `/companies/${b.id}`)).json()).toMatchObject({ name: b.name, campaignsEnabled: false });
    expect(await settingOf(b.id, "campaignsEnabled")).toBe("disabled");
  });

  it("GET /companies/{id} carries the company's settings; secret keys only for admins and super users", async () => {
    const c = await buildCompany(t.app);
    await t.app.charla.db
      .update(settings)
      .set({ value: "tok-secreto" })
      .where(and(eq(settings.companyId, c.id), eq(settings.key, "asaas")));
    const admin = await login(t.app, c.admin);
    const mine = (await call(admin, "GET", `/companies/${c.id}`)).json();
    expect(mine.settings).toEqual(expect.arrayContaining([expect.objectContaining({ key: "asaas", value: "tok-secreto" })]));
    expect(mine.settings.map((x: { key: string }) => x.key)).not.toContain("userCreation");
    const user = await login(t.app, await buildUser(t.app, c.id));
    const seen = (await call(user, "GET", `/companies/${c.id}`)).json();
    expect(seen.settings.map((x: { key: string }) => x.key)).toContain("userRating");
    expect(seen.settings.map((x: { key: string }) => x.key)).not.toContain("asaas");
    expect(JSON.stringify(seen)).not.toContain("tok-secreto");
  });
});

describe("#companies listPlan", () => {
  it("any user reads their own company with its plan; another company's id is 404 unless super", async () => {
    const c = await buildCompany(t.app);
    const other = await buildCompany(t.app);
    const user = await login(t.app, await buildUser(t.app, c.id));
    const res = await call(user, "GET", `/companies/listPlan/${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, planId: c.planId, plan: { id: c.planId, users: 10 } });
    expectError(await call(user, "GET", `/companies/listPlan/${other.id}`), 404, "ERR_NO_COMPANY_FOUND");
    const { s: sup } = await superSession();
    expect((await call(sup, "GET", `/companies/listPlan/${other.id}`)).json()).toMatchObject({
      id: other.id,
      plan: { id: other.planId },
    });
    expectError(await call(sup, "GET", "/companies/listPlan/2000000000"), 404, "ERR_NO_COMPANY_FOUND");
    expect((await t.app.inject({ method: "GET", url: `/api/v1/companies/listPlan/${c.id}` })).statusCode).toBe(401);
  });
});

describe("#companies delete", () => {
  it("takes the company's data, files and running sessions with it", async () => {
    const { s: sup } = await superSession();
    const victim = await buildCompany(t.app);
    const wa = await buildWhatsapp(t.app, victim.id, { provider: "simulator", isDefault: true, status: "OPENING" });
    await t.app.charla.sessions.restart(victim.id, wa.id);
    expect(t.app.charla.sessions.runningDriver(victim.id, wa.id)).not.toBeNull();
    const admin = await login(t.app, victim.admin);
    const logo = await as(t.app, admin, {
      method: "POST",
      url: `/api/v1/companies/${victim.id}/logo`,
      ...multipart("logo", "l.png", "image/png", PNG),
    });
    expect(logo.statusCode).toBe(200);
    expect(existsSync(companyDir(victim.id))).toBe(true);

    expect((await call(sup, "DELETE", `/companies/${victim.id}`)).statusCode).toBe(204);
    expect(t.app.charla.sessions.runningDriver(victim.id, wa.id)).toBeNull();
    expect(existsSync(companyDir(victim.id))).toBe(false);
    expect(await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.companyId, victim.id))).toEqual([]);
    expect(await t.app.charla.db.select().from(users).where(eq(users.companyId, victim.id))).toEqual([]);
    expect(await t.app.charla.db.select().from(settings).where(eq(settings.companyId, victim.id))).toEqual([]);
    // nothing starts it again: the connection is gone with its lease
    await expect(t.app.charla.sessions.driverFor(victim.id, wa.id)).resolves.toBeNull();
  });
});

describe("#companies branding", () => {
  it("the company's admin sets colours and page title; a super user any company's", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    const form = { primaryColor: "#112233", headerColor: "#fafafa", pageTitle: "Soporte Uno" };
    const res = await call(admin, "PUT", `/companies/${c.id}/branding`, form);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, ...form });
    expect((await call(admin, "GET", "/auth/me")).json().company).toMatchObject(form);
    const { s: sup } = await superSession();
    expect((await call(sup, "PUT", `/companies/${c.id}/branding`, { ...form, pageTitle: "Por super" })).json().pageTitle).toBe(
      "Por super",
    );
  });

  it("refuses a `user` (403), another company's admin (404) and a bad colour (400)", async () => {
    const c = await buildCompany(t.app);
    const form = { primaryColor: "#112233", headerColor: "#ffffff", pageTitle: "X" };
    const user = await login(t.app, await buildUser(t.app, c.id));
    expectError(await call(user, "PUT", `/companies/${c.id}/branding`, form), 403, "ERR_NO_PERMISSION");
    const other = await login(t.app, (await buildCompany(t.app)).admin);
    expectError(await call(other, "PUT", `/companies/${c.id}/branding`, form), 404, "ERR_NO_COMPANY_FOUND");
    const admin = await login(t.app, c.admin);
    expectError(await call(admin, "PUT", `/companies/${c.id}/branding`, { ...form, primaryColor: "red" }), 400, "ERR_VALIDATION");
    const [row] = await t.app.charla.db.select().from(companies).where(eq(companies.id, c.id));
    expect(row).toMatchObject({ primaryColor: "#FAAF3B", pageTitle: "" });
  });
});

describe("#companies logo", () => {
  it("refuses a logo over LOGO_MAX_BYTES (413) and keeps nothing", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    const big = Buffer.concat([PNG, randomBytes(LOGO_MAX_BYTES)]);
    const res = await as(t.app, admin, {
      method: "POST",
      url: `/api/v1/companies/${c.id}/logo`,
      ...multipart("logo", "l.png", "image/png", big),
    });
    expectError(res, 413, "ERR_FILE_TOO_LARGE");
    expect((await call(admin, "GET", `/companies/${c.id}`)).json().logo).toBe(false);
  });

  it("DELETE /companies/{id}/logo removes it and its file; others' ids 404, users 403", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    await as(t.app, admin, {
      method: "POST",
      url: `/api/v1/companies/${c.id}/logo`,
      ...multipart("logo", "l.png", "image/png", PNG),
    });
    const [{ logoPath }] = await t.app.charla.db
      .select({ logoPath: companies.logoPath })
      .from(companies)
      .where(eq(companies.id, c.id));
    expect(existsSync(join(companyDir(c.id), String(logoPath)))).toBe(true);
    const user = await login(t.app, await buildUser(t.app, c.id));
    expectError(await call(user, "DELETE", `/companies/${c.id}/logo`), 403, "ERR_NO_PERMISSION");
    const other = await login(t.app, (await buildCompany(t.app)).admin);
    expectError(await call(other, "DELETE", `/companies/${c.id}/logo`), 404, "ERR_NO_COMPANY_FOUND");
    const res = await call(admin, "DELETE", `/companies/${c.id}/logo`);
    expect(res.statusCode).toBe(200);
    expect(res.json().logo).toBe(false);
    expect(existsSync(join(companyDir(c.id), String(logoPath)))).toBe(false);
    expectError(await call(admin, "GET", `/companies/${c.id}/logo`), 404, "ERR_NOT_FOUND");
    // deleting when there is none is no error
    expect((await call(admin, "DELETE", `/companies/${c.id}/logo`)).statusCode).toBe(200);
  });
});

describe("#uploadfile (core §7: the company in the header `name`)", () => {
  it("stores the PNG in `attachment` (or `file`) as the company's logo", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    const res = await upload(
      admin,
      { name: `company${c.id}`, filename: "logo.png" },
      multipart("attachment", "logo.png", "image/png", PNG),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, logo: true });
    const img = await call(admin, "GET", `/companies/${c.id}/logo`);
    expect(img.rawPayload.equals(PNG)).toBe(true);
    const again = await upload(
      admin,
      { name: `company${c.id}`, filename: "l.png" },
      multipart("file", "l.png", "image/png", PNG),
    );
    expect(again.statusCode).toBe(200);
  });

  it("another company's id → 404, a malformed or missing header → 400, a JPEG → 400, a `user` → 403", async () => {
    const c = await buildCompany(t.app);
    const other = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    const png = () => multipart("attachment", "l.png", "image/png", PNG);
    expectError(await upload(admin, { name: `company${other.id}`, filename: "l.png" }, png()), 404, "ERR_NO_COMPANY_FOUND");
    for (const name of ["company", `empresa${c.id}`, `company${c.id}x`, "company-1", "company0", `company${"9".repeat(12)}`])
      expectError(await upload(admin, { name, filename: "l.png" }, png()), 400, "ERR_BAD_REQUEST");
    expectError(await upload(admin, {}, png()), 400, "ERR_BAD_REQUEST");
    const jpeg = multipart("attachment", "l.png", "image/png", JPEG);
    expectError(await upload(admin, { name: `company${c.id}`, filename: "l.png" }, jpeg), 400, "ERR_INVALID_FILE_TYPE");
    const user = await login(t.app, await buildUser(t.app, c.id));
    expectError(await upload(user, { name: `company${c.id}`, filename: "l.png" }, png()), 403, "ERR_NO_PERMISSION");
    for (const id of [c.id, other.id]) {
      const [row] = await t.app.charla.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, id));
      expect(row.logo).toBeNull();
    }
  });

  it("answers truncated or malformed multipart bodies with a 4xx code and keeps no file", async () => {
    const c = await buildCompany(t.app);
    const admin = await login(t.app, c.admin);
    for (const body of badMultiparts("attachment")) {
      const res = await as(t.app, admin, {
        method: "POST",
        url: "/api/v1/uploadfile",
        payload: body.payload,
        headers: { "content-type": body.contentType, name: `company${c.id}`, filename: "a.png" },
      });
      expect(res.statusCode, body.name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, body.name).toBeLessThan(500);
    }
    const [row] = await t.app.charla.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, c.id));
    expect(row.logo).toBeNull();
    await expect
      .poll(() => existsSync(companyDir(c.id)) && readdirSync(companyDir(c.id), { recursive: true }).length > 0)
      .toBe(false);
  });
});
