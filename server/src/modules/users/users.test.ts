import { randomBytes } from "node:crypto";
import type { Profile } from "@charla/contracts";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { caller, expectError, uid } from "../../test/http.js";
import { PASSWORD, type Session, as, buildCompany, buildQueue, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { multipart } from "../../test/multipart.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const form = (over: Record<string, unknown> = {}) => ({
  name: "Ana Pérez",
  email: `ana-${uid()}@test.charla`,
  password: "clave-123",
  profile: "user",
  ...over,
});
/** A company and a logged-in user of it (its admin unless a profile is given). */
async function sessionIn(profile: Profile = "admin", extra: { super?: boolean } = {}) {
  const c = await buildCompany(t.app);
  const u = profile === "admin" && !extra.super ? c.admin : await buildUser(t.app, c.id, { profile, ...extra });
  return { c, u, s: await login(t.app, u) };
}
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0"), randomBytes(64)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(32)]);
const upload = (s: Session, id: number, body: ReturnType<typeof multipart>) =>
  as(t.app, s, { method: "POST", url: `/api/v1/users/${id}/media-upload`, ...body });

describe("#users auth", () => {
  it("should require authentication", async () => {
    const routes: [InjectOptions["method"], string][] = [
      ["GET", "/users"],
      ["GET", "/users/list"],
      ["GET", "/users/1"],
      ["POST", "/users"],
      ["PUT", "/users/1"],
      ["DELETE", "/users/1"],
      ["POST", "/users/1/media-upload"],
      ["GET", "/users/1/profile-image"],
      ["PUT", "/users-company/1"],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, payload: method === "GET" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    }
  });
});

describe("#users.create", () => {
  it("creates a user (201) with a lower-cased email, queues as {id,name,color} and no password fields", async () => {
    const { c, s } = await sessionIn();
    const q = await buildQueue(t.app, c.id);
    const w = await buildWhatsapp(t.app, c.id);
    const email = `Mixed-${uid()}@Test.CHARLA`;
    const res = await call(s, "POST", "/users", form({ email, queueIds: [q.id], whatsappId: w.id }));
    expect(res.statusCode).toBe(201);
    const view = res.json();
    expect(view).toMatchObject({ name: "Ana Pérez", email: email.toLowerCase(), profile: "user", super: false, companyId: c.id });
    expect(view.queues).toEqual([{ id: q.id, name: q.name, color: q.color }]);
    expect(view.whatsapp).toEqual({ id: w.id, name: w.name });
    for (const k of ["password", "passwordHash", "password_hash"]) expect(view).not.toHaveProperty(k);
    expect((await call(s, "GET", `/users/${view.id}`)).json()).toEqual(view);
    expect((await login(t.app, { email: email.toLowerCase() }, "clave-123")).userId).toBe(view.id);
  });

  it("validates the form with issue paths and i18n messages", async () => {
    const { s } = await sessionIn();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "A" }, "body.name", "validation.tooShort"],
      [{ name: "x".repeat(51) }, "body.name", "validation.tooLong"],
      [{ name: undefined }, "body.name", "validation.required"],
      [{ email: "not-an-email" }, "body.email", "validation.invalidEmail"],
      [{ password: "1234" }, "body.password", "validation.tooShort"],
      [{ password: "p".repeat(51) }, "body.password", "validation.tooLong"],
    ];
    for (const [over, path, message] of cases) {
      const res = await call(s, "POST", "/users", form(over));
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().issues).toContainEqual({ path, message });
    }
    const bad = await call(s, "POST", "/users", form({ profile: "boss" }));
    expectError(bad, 400, "ERR_VALIDATION");
    expect(bad.json().issues.map((i: { path: string }) => i.path)).toContain("body.profile");
  });

  it("keeps emails unique across companies (409 ERR_EMAIL_ALREADY_EXISTS)", async () => {
    const { s } = await sessionIn();
    const other = await buildCompany(t.app);
    const res = await call(s, "POST", "/users", form({ email: other.admin.email.toUpperCase() }));
    expectError(res, 409, "ERR_EMAIL_ALREADY_EXISTS");
  });

  it("stops at the plan's user count (403 ERR_USER_LIMIT_REACHED)", async () => {
    const c = await buildCompany(t.app, { plan: { users: 2 } });
    const s = await login(t.app, c.admin);
    expect((await call(s, "POST", "/users", form())).statusCode).toBe(201);
    expectError(await call(s, "POST", "/users", form()), 403, "ERR_USER_LIMIT_REACHED");
  });

  it("refuses another company's queue (ERR_NO_QUEUE_FOUND) or connection (ERR_NO_WAPP_FOUND)", async () => {
    const { s } = await sessionIn();
    const other = await buildCompany(t.app);
    const q = await buildQueue(t.app, other.id);
    const w = await buildWhatsapp(t.app, other.id);
    expectError(await call(s, "POST", "/users", form({ queueIds: [q.id] })), 404, "ERR_NO_QUEUE_FOUND");
    expectError(await call(s, "POST", "/users", form({ whatsappId: w.id })), 404, "ERR_NO_WAPP_FOUND");
  });
});

describe("#users.list and search", () => {
  it("pages 20 at a time with count and hasMore, only the caller's company", async () => {
    const { c, s } = await sessionIn();
    await buildCompany(t.app);
    for (let i = 0; i < 24; i++) await buildUser(t.app, c.id, { name: `Zeta ${String(i).padStart(2, "0")}` });
    const p1 = (await call(s, "GET", "/users?pageNumber=1")).json();
    expect(p1).toMatchObject({ count: 25, hasMore: true });
    expect(p1.users).toHaveLength(20);
    const p2 = (await call(s, "GET", "/users?pageNumber=2")).json();
    expect(p2).toMatchObject({ count: 25, hasMore: false });
    expect(p2.users).toHaveLength(5);
    const ids = [...p1.users, ...p2.users].map((u: { id: number; companyId: number }) => u.companyId);
    expect(new Set(ids)).toEqual(new Set([c.id]));
  });

  it("searches by name and by email", async () => {
    const { c, s } = await sessionIn();
    const tag = uid();
    const byName = await buildUser(t.app, c.id, { name: `Marisol ${tag}` });
    const byEmail = await buildUser(t.app, c.id, { email: `quintana-${tag}@test.charla` });
    const found = async (term: string) =>
      (await call(s, "GET", `/users?searchParam=${encodeURIComponent(term)}`)).json().users.map((u: { id: number }) => u.id);
    expect(await found(`marisol ${tag}`)).toEqual([byName.id]);
    expect(await found(`QUINTANA-${tag}`)).toEqual([byEmail.id]);
    expect((await call(s, "GET", "/users?searchParam=nobody-at-all")).json()).toEqual({ users: [], count: 0, hasMore: false });
  });

  it("/users/list gives every user of the company to any profile", async () => {
    const { c, u, s } = await sessionIn("user");
    await buildCompany(t.app);
    const res = await call(s, "GET", "/users/list");
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .map((x: { id: number }) => x.id)
        .sort(),
    ).toEqual([c.admin.id, u.id].sort());
  });

  it("answers 404 ERR_NO_USER_FOUND for another company's user on GET, PUT and DELETE", async () => {
    const { s } = await sessionIn();
    const other = await buildCompany(t.app);
    const id = other.admin.id;
    expectError(await call(s, "GET", `/users/${id}`), 404, "ERR_NO_USER_FOUND");
    expectError(await call(s, "PUT", `/users/${id}`, { name: "Otro", email: other.admin.email }), 404, "ERR_NO_USER_FOUND");
    expectError(await call(s, "DELETE", `/users/${id}`), 404, "ERR_NO_USER_FOUND");
  });
});

describe("#users.update and delete", () => {
  it("updates fields and queues; delete answers 204 and the user is gone", async () => {
    const { c, s } = await sessionIn();
    const target = await buildUser(t.app, c.id);
    const q = await buildQueue(t.app, c.id);
    const email = `nuevo-${uid()}@test.charla`;
    const res = await call(s, "PUT", `/users/${target.id}`, { name: "Nuevo", email, profile: "supervisor", queueIds: [q.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, name: "Nuevo", email, profile: "supervisor" });
    expect(res.json().queues).toEqual([{ id: q.id, name: q.name, color: q.color }]);
    const taken = await call(s, "PUT", `/users/${target.id}`, { name: "Nuevo", email: c.admin.email.toUpperCase() });
    expectError(taken, 409, "ERR_EMAIL_ALREADY_EXISTS");
    expect((await call(s, "DELETE", `/users/${target.id}`)).statusCode).toBe(204);
    expectError(await call(s, "GET", `/users/${target.id}`), 404, "ERR_NO_USER_FOUND");
  });

  it("a password change ends the user's sessions but keeps the editor's", async () => {
    const { c, s } = await sessionIn();
    const target = await buildUser(t.app, c.id);
    const ts = await login(t.app, target);
    const res = await call(s, "PUT", `/users/${target.id}`, { name: target.name, email: target.email, password: "nueva-clave" });
    expect(res.statusCode).toBe(200);
    expectError(await call(ts, "GET", "/auth/me"), 401, "ERR_SESSION_EXPIRED");
    expect((await call(s, "GET", "/auth/me")).statusCode).toBe(200);
    expect((await login(t.app, target, "nueva-clave")).userId).toBe(target.id);
  });

  it("nobody deletes themselves (ERR_CANNOT_DELETE_SELF)", async () => {
    const { c, s } = await sessionIn();
    expectError(await call(s, "DELETE", `/users/${c.admin.id}`), 400, "ERR_CANNOT_DELETE_SELF");
  });
});

describe("#users permissions", () => {
  it("a `user` gets 403 on the staff routes and on other users", async () => {
    const { c, s } = await sessionIn("user");
    const other = c.admin.id;
    for (const [method, url, body] of [
      ["GET", "/users", undefined],
      ["POST", "/users", form()],
      ["DELETE", `/users/${other}`, undefined],
      ["GET", `/users/${other}`, undefined],
      ["PUT", `/users/${other}`, { name: "Hack", email: c.admin.email }],
    ] as const) {
      expectError(await call(s, method, url, body), 403, "ERR_NO_PERMISSION");
    }
  });

  it("a `user` reads and edits itself (name, email, password) but not its profile or queues", async () => {
    const { c, u, s } = await sessionIn("user");
    expect((await call(s, "GET", `/users/${u.id}`)).json()).toMatchObject({ id: u.id, profile: "user" });
    const email = `yo-${uid()}@test.charla`;
    const res = await call(s, "PUT", `/users/${u.id}`, {
      name: "Yo Mismo",
      email,
      password: "otra-clave",
      currentPassword: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Yo Mismo", email, profile: "user" });
    expect((await call(s, "GET", "/auth/me")).statusCode).toBe(200);
    const [q1, q2] = [await buildQueue(t.app, c.id), await buildQueue(t.app, c.id)];
    expectError(await call(s, "PUT", `/users/${u.id}`, { name: "Yo", email, profile: "admin" }), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "PUT", `/users/${u.id}`, { name: "Yo", email, queueIds: [q1.id] }), 403, "ERR_NO_PERMISSION");
    // the modal sends the unchanged profile and queues back: that is not a change
    const admin = await login(t.app, c.admin);
    expect((await call(admin, "PUT", `/users/${u.id}`, { name: "Yo", email, queueIds: [q1.id, q2.id] })).statusCode).toBe(200);
    const same = await call(s, "PUT", `/users/${u.id}`, { name: "Yo", email, profile: "user", queueIds: [q2.id, q1.id] });
    expect(same.statusCode).toBe(200);
  });

  it("a subadmin creates users but not admins, and cannot edit or delete an admin", async () => {
    const { c, s } = await sessionIn("subadmin");
    expect((await call(s, "POST", "/users", form())).statusCode).toBe(201);
    expectError(await call(s, "POST", "/users", form({ profile: "admin" })), 403, "ERR_NO_PERMISSION");
    const a = c.admin;
    expectError(await call(s, "PUT", `/users/${a.id}`, { name: "Cambio", email: a.email }), 403, "ERR_NO_PERMISSION");
    expectError(await call(s, "DELETE", `/users/${a.id}`), 403, "ERR_NO_PERMISSION");
  });

  it("only super users hand out `super`", async () => {
    const { c, s } = await sessionIn();
    const target = await buildUser(t.app, c.id);
    expectError(await call(s, "POST", "/users", form({ super: true })), 403, "ERR_NO_PERMISSION");
    const put = await call(s, "PUT", `/users/${target.id}`, { name: target.name, email: target.email, super: true });
    expectError(put, 403, "ERR_NO_PERMISSION");
    const sup = await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true }));
    const made = await call(sup, "POST", "/users", form({ profile: "admin", super: true }));
    expect(made.statusCode).toBe(201);
    expect(made.json().super).toBe(true);
  });
});

describe("#users own password", () => {
  it("changing one's own password needs the current one; a wrong one is refused and changes nothing", async () => {
    const { c, u, s } = await sessionIn("user");
    const body = { name: u.name, email: u.email, password: "nueva-clave" };
    const missing = await call(s, "PUT", `/users/${u.id}`, body);
    expectError(missing, 400, "ERR_VALIDATION");
    expect(missing.json().issues).toEqual([{ path: "currentPassword", message: "validation.required" }]);
    expectError(await call(s, "PUT", `/users/${u.id}`, { ...body, currentPassword: "no-es-la-mia" }), 400, "ERR_WRONG_PASSWORD");
    await expect(login(t.app, u, "nueva-clave")).rejects.toThrow(/401/);
    // the same holds for staff editing themselves
    const admin = await login(t.app, c.admin);
    const adminBody = { name: c.admin.name, email: c.admin.email, password: "clave-admin" };
    expectError(await call(admin, "PUT", `/users/${c.admin.id}`, adminBody), 400, "ERR_VALIDATION");
    expectError(
      await call(admin, "PUT", `/users/${c.admin.id}`, { ...adminBody, currentPassword: "mal" }),
      400,
      "ERR_WRONG_PASSWORD",
    );
    // name and email alone need no password
    expect((await call(s, "PUT", `/users/${u.id}`, { name: "Sin Clave", email: u.email })).statusCode).toBe(200);
    const ok = await call(s, "PUT", `/users/${u.id}`, { ...body, currentPassword: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect((await login(t.app, u, "nueva-clave")).userId).toBe(u.id);
    // an admin setting another user's password does not need theirs
    const reset = await call(admin, "PUT", `/users/${u.id}`, { name: u.name, email: u.email, password: "otra-mas" });
    expect(reset.statusCode).toBe(200);
    expect((await login(t.app, u, "otra-mas")).userId).toBe(u.id);
  });

  it("counts wrong current passwords like logins: past the limit even the right one is refused", async () => {
    const limited = await getTestApp({ loginMaxPerEmail: 3 });
    try {
      const c = await buildCompany(limited.app);
      const s = await login(limited.app, c.admin);
      const put = (currentPassword: string) =>
        as(limited.app, s, {
          method: "PUT",
          url: `/api/v1/users/${c.admin.id}`,
          payload: { name: c.admin.name, email: c.admin.email, password: "nueva-clave", currentPassword },
        });
      const wrong = await Promise.all([1, 2, 3].map((n) => put(`mal-${n}`)));
      for (const res of wrong) expectError(res, 400, "ERR_WRONG_PASSWORD");
      expectError(await put(PASSWORD), 429, "ERR_RATE_LIMITED");
    } finally {
      await limited.close();
    }
  });
});

describe("#users profile image", () => {
  it("stores a JPEG and serves the same bytes as image/jpeg", async () => {
    const { c, s } = await sessionIn();
    const target = await buildUser(t.app, c.id);
    const res = await upload(s, target.id, multipart("profileImage", "me.jpg", "image/jpeg", JPEG));
    expect(res.statusCode).toBe(200);
    const path: string = res.json().profileImage;
    expect(path).toMatch(new RegExp(`^/api/v1/users/${target.id}/profile-image`));
    const img = await as(t.app, s, { method: "GET", url: path });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toMatch(/^image\/jpeg/);
    expect(img.rawPayload.equals(JPEG)).toBe(true);
  });

  it("refuses a PNG or a text file (400 ERR_INVALID_FILE_TYPE), even when labelled jpeg", async () => {
    const { c, s } = await sessionIn();
    for (const data of [PNG, Buffer.from("hola, no soy una imagen")]) {
      const res = await upload(s, c.admin.id, multipart("profileImage", "me.jpg", "image/jpeg", data));
      expectError(res, 400, "ERR_INVALID_FILE_TYPE");
    }
  });

  it("a `user` changes its own picture but not another user's (403)", async () => {
    const { c, u, s } = await sessionIn("user");
    expect((await upload(s, u.id, multipart("profileImage", "me.jpg", "image/jpeg", JPEG))).statusCode).toBe(200);
    const res = await upload(s, c.admin.id, multipart("profileImage", "me.jpg", "image/jpeg", JPEG));
    expectError(res, 403, "ERR_NO_PERMISSION");
  });

  it("follows the rule of every other edit: a subadmin does not touch an admin's or a super user's picture", async () => {
    const { c, s } = await sessionIn("subadmin");
    const sup = await buildUser(t.app, c.id, { profile: "admin", super: true });
    const jpeg = () => multipart("profileImage", "me.jpg", "image/jpeg", JPEG);
    expectError(await upload(s, c.admin.id, jpeg()), 403, "ERR_NO_PERMISSION");
    expectError(await upload(s, sup.id, jpeg()), 403, "ERR_NO_PERMISSION");
    // the refused upload changed nothing
    expect((await call(await login(t.app, c.admin), "GET", `/users/${c.admin.id}`)).json().profileImage).toBeNull();
    // a plain admin may not touch a super user's either; a super user may
    const admin = await login(t.app, c.admin);
    expectError(await upload(admin, sup.id, jpeg()), 403, "ERR_NO_PERMISSION");
    expect((await upload(await login(t.app, sup), c.admin.id, jpeg())).statusCode).toBe(200);
    // the subadmin still edits a plain user's picture and its own
    const agent = await buildUser(t.app, c.id);
    expect((await upload(s, agent.id, jpeg())).statusCode).toBe(200);
    expect((await upload(s, s.userId, jpeg())).statusCode).toBe(200);
  });

  it("answers 404 for another company's user", async () => {
    const { s } = await sessionIn();
    const other = await buildCompany(t.app);
    const res = await upload(s, other.admin.id, multipart("profileImage", "me.jpg", "image/jpeg", JPEG));
    expectError(res, 404, "ERR_NO_USER_FOUND");
    expectError(await call(s, "GET", `/users/${other.admin.id}/profile-image`), 404, "ERR_NO_USER_FOUND");
  });
});

describe("#users-company", () => {
  it("only a super user moves a user; the user's next login lands in the new company", async () => {
    const { c, s: admin } = await sessionIn();
    const dest = await buildCompany(t.app);
    const target = await buildUser(t.app, c.id);
    expectError(await call(admin, "PUT", `/users-company/${target.id}`, { companyId: dest.id }), 403, "ERR_NO_PERMISSION");
    const sup = await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true }));
    const before = await login(t.app, target);
    const nowhere = await call(sup, "PUT", `/users-company/${target.id}`, { companyId: 2_000_000_000 });
    expectError(nowhere, 404, "ERR_NO_COMPANY_FOUND");
    const res = await call(sup, "PUT", `/users-company/${target.id}`, { companyId: dest.id, profile: "supervisor" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, companyId: dest.id, profile: "supervisor" });
    expectError(await call(before, "GET", "/auth/me"), 401, "ERR_SESSION_EXPIRED");
    const moved = await login(t.app, target, PASSWORD);
    expect(moved.companyId).toBe(dest.id);
    expectError(await call(sup, "GET", `/users/${target.id}`), 404, "ERR_NO_USER_FOUND");
  });
});

describe("#users-company swap of oneself and plan limits", () => {
  it("a super user swapping company keeps the session: the old token answers 403, refresh lands in the new company", async () => {
    const { c } = await sessionIn();
    const dest = await buildCompany(t.app);
    const me = await buildUser(t.app, c.id, { profile: "admin", super: true });
    const s = await login(t.app, me);
    expect((await call(s, "PUT", `/users-company/${me.id}`, { companyId: dest.id })).statusCode).toBe(200);
    expectError(await call(s, "GET", "/auth/me"), 403, "ERR_TOKEN_EXPIRED");
    const refreshed = await t.app.inject({ method: "POST", url: "/api/v1/auth/refresh_token", headers: { cookie: s.cookie } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.companyId).toBe(dest.id);
    expect((await call({ token: refreshed.json().token }, "GET", "/auth/me")).json().companyId).toBe(dest.id);
  });

  it("refuses to move a user into a company whose plan is full", async () => {
    const { c } = await sessionIn();
    const full = await buildCompany(t.app, { plan: { users: 1 } });
    const sup = await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true }));
    const target = await buildUser(t.app, c.id);
    expectError(await call(sup, "PUT", `/users-company/${target.id}`, { companyId: full.id }), 403, "ERR_USER_LIMIT_REACHED");
    expect((await call(sup, "GET", `/users/${target.id}`)).json().companyId).toBe(c.id);
  });
});
