import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../../test/app.js";
import { PASSWORD, as, buildCompany, buildUser, login, refreshCookieOf } from "../../test/factories.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload?: unknown, cookie?: string) =>
  t.app.inject({ method: "POST", url, payload: payload as object, headers: cookie ? { cookie } : {} });

describe("#auth.login", () => {
  it("trims and lower-cases the email and returns token and user with company, settings and queues", async () => {
    const c = await buildCompany(t.app);
    const res = await post("/api/v1/auth/login", { email: `  ${c.admin.email.toUpperCase()} `, password: ` ${PASSWORD} ` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe("string");
    expect(body.user).toMatchObject({ id: c.admin.id, companyId: c.id, profile: "admin", super: false, queues: [] });
    expect(body.user.company).toMatchObject({ id: c.id, dueDate: "2099-12-31" });
    expect(body.user.company.settings.map((s: { key: string }) => s.key)).toContain("userRating");
    expect(body.user).not.toHaveProperty("passwordHash");
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toMatch(/charla_rt=/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it("refuses a wrong password or an unknown email with ERR_INVALID_CREDENTIALS (401)", async () => {
    const c = await buildCompany(t.app);
    for (const payload of [
      { email: c.admin.email, password: "wrong-pass" },
      { email: "nobody@nowhere.test", password: PASSWORD },
    ]) {
      const res = await post("/api/v1/auth/login", payload);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: "ERR_INVALID_CREDENTIALS" });
    }
  });

  it("requires email and password", async () => {
    const res = await post("/api/v1/auth/login", { email: "  " });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_VALIDATION");
    expect(res.json().issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["body.email", "body.password"]),
    );
  });

  it("refuses a company past its due date with a message naming the date, but lets a super user in", async () => {
    const c = await buildCompany(t.app, { dueDate: "2020-01-15" });
    const res = await post("/api/v1/auth/login", { email: c.admin.email, password: PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", data: { dueDate: "2020-01-15" } });
    expect(res.json().message).toContain("15/01/2020");
    const sup = await buildUser(t.app, c.id, { profile: "admin", super: true });
    expect((await post("/api/v1/auth/login", { email: sup.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it("refuses a disabled company", async () => {
    const c = await buildCompany(t.app, { status: false });
    const res = await post("/api/v1/auth/login", { email: c.admin.email, password: PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_COMPANY_INACTIVE");
  });

  it("a new login ends the older session of the same user", async () => {
    const c = await buildCompany(t.app);
    const first = await login(t.app, c.admin);
    expect((await as(t.app, first, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(200);
    const second = await login(t.app, c.admin);
    const old = await as(t.app, first, { method: "GET", url: "/api/v1/auth/me" });
    expect(old.statusCode).toBe(401);
    expect(old.json().error).toBe("ERR_SESSION_EXPIRED");
    expect((await post("/api/v1/auth/refresh_token", undefined, first.cookie)).statusCode).toBe(401);
    expect((await as(t.app, second, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(200);
  });
});

describe("#auth.refresh_token", () => {
  it("rotates the refresh cookie on every use and returns a working token", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const res = await post("/api/v1/auth/refresh_token", undefined, s.cookie);
    expect(res.statusCode).toBe(200);
    const next = refreshCookieOf(res.headers["set-cookie"]);
    expect(next).toMatch(/^charla_rt=/);
    expect(next).not.toBe(s.cookie);
    expect(res.json().user.id).toBe(c.admin.id);
    expect((await as(t.app, { token: res.json().token }, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(200);
    expect((await post("/api/v1/auth/refresh_token", undefined, next)).statusCode).toBe(200);
  });

  it("reuse of a rotated token revokes the whole family", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const r1 = await post("/api/v1/auth/refresh_token", undefined, s.cookie);
    const fresh = refreshCookieOf(r1.headers["set-cookie"]);
    const replay = await post("/api/v1/auth/refresh_token", undefined, s.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe("ERR_SESSION_EXPIRED");
    // the legitimate holder's newer token and access token die with the family
    expect((await post("/api/v1/auth/refresh_token", undefined, fresh)).statusCode).toBe(401);
    expect((await as(t.app, { token: r1.json().token }, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(401);
  });

  it("holds its transaction for the rotation alone: the session user is read after the commit", async () => {
    // PGlite runs one statement at a time and a transaction keeps it: a page load's socket handshake
    // and first lists waited behind the refresh's reads of the user, queues, plan and settings
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const db = t.app.charla.db;
    const original = db.transaction.bind(db);
    let inside = 0;
    db.transaction = ((fn: (tx: unknown) => Promise<unknown>) =>
      original((tx) =>
        fn(
          new Proxy(tx, {
            get(target, key, receiver) {
              const value = Reflect.get(target, key, receiver);
              if (typeof value !== "function" || !["select", "insert", "update", "delete", "execute"].includes(String(key)))
                return value;
              return (...args: unknown[]) => {
                inside += 1;
                return value.apply(target, args);
              };
            },
          }),
        ),
      )) as typeof db.transaction;
    try {
      const res = await post("/api/v1/auth/refresh_token", undefined, s.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ id: c.admin.id, companyId: c.id });
      expect(res.json().user.company.settings.length).toBeGreaterThan(0);
    } finally {
      db.transaction = original;
    }
    // the token and session read and locked together with the user and company, the old token marked
    // used with the session's last use, the new token stored
    expect(inside).toBe(3);
  });

  it("answers 401 without a cookie or with a made-up one", async () => {
    expect((await post("/api/v1/auth/refresh_token")).statusCode).toBe(401);
    expect((await post("/api/v1/auth/refresh_token", undefined, "charla_rt=made-up")).statusCode).toBe(401);
  });
});

describe("#auth access tokens", () => {
  it("no token or a forged token answers 401; an expired one answers 403 ERR_TOKEN_EXPIRED", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(401);
    const forged = await new SignJWT({ cid: c.id, sid: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.admin.id))
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret"));
    expect((await as(t.app, { token: forged }, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(401);
    const sid = JSON.parse(Buffer.from(s.token.split(".")[1], "base64url").toString()).sid;
    const expired = await new SignJWT({ cid: c.id, sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(c.admin.id))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await as(t.app, { token: expired }, { method: "GET", url: "/api/v1/auth/me" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_TOKEN_EXPIRED");
  });

  it("a company that expires after login is refused on the next request", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const sup = await buildCompany(t.app);
    const { companies } = await import("../../db/schema/index.js");
    const { eq } = await import("drizzle-orm");
    await t.app.charla.db.update(companies).set({ dueDate: "2021-02-03" }).where(eq(companies.id, c.id));
    const res = await as(t.app, s, { method: "GET", url: "/api/v1/auth/me" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", data: { dueDate: "2021-02-03" } });
    expect(sup.id).not.toBe(c.id);
  });
});

describe("#auth.logout and /auth/me", () => {
  it("logout ends the session: token and cookie stop working", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const me = await as(t.app, s, { method: "GET", url: "/api/v1/auth/me" });
    expect(me.json()).toMatchObject({ id: c.admin.id, email: c.admin.email });
    const out = await t.app.inject({
      method: "DELETE",
      url: "/api/v1/auth/logout",
      headers: { cookie: s.cookie, authorization: `Bearer ${s.token}` },
    });
    expect(out.statusCode).toBe(204);
    expect((await as(t.app, s, { method: "GET", url: "/api/v1/auth/me" })).statusCode).toBe(401);
    expect((await post("/api/v1/auth/refresh_token", undefined, s.cookie)).statusCode).toBe(401);
  });

  it("names the company's time zone, the one the web shows every date in: America/Noronha until Horarios sets another", async () => {
    const c = await buildCompany(t.app);
    const s = await login(t.app, c.admin);
    const me = () => as(t.app, s, { method: "GET", url: "/api/v1/auth/me" });
    expect((await me()).json().company).toMatchObject({ id: c.id, timeZone: "America/Noronha" });
    const saved = await as(t.app, s, {
      method: "PUT",
      url: `/api/v1/companies/${c.id}/schedules`,
      payload: { id: c.id, schedules: [], zone_time: "Asia/Tokyo" },
    });
    expect(saved.statusCode).toBe(200);
    expect((await me()).json().company.timeZone).toBe("Asia/Tokyo");
    const refreshed = await post("/api/v1/auth/refresh_token", undefined, s.cookie);
    expect(refreshed.json().user.company.timeZone).toBe("Asia/Tokyo");
  });
});

describe("#auth rate limit", () => {
  it("limits attempts per IP and per email with 429 ERR_RATE_LIMITED", async () => {
    const limited = await getTestApp({ loginMaxPerIp: 5, loginMaxPerEmail: 3 }, t.database);
    try {
      const c = await buildCompany(limited.app);
      const attempt = (email: string, password: string, ip: string) =>
        limited.app.inject({ method: "POST", url: "/api/v1/auth/login", payload: { email, password }, remoteAddress: ip });
      const ipA = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      // per email: three failures lock the email, even with the right password, from any IP
      for (let i = 0; i < 3; i++) expect((await attempt(c.admin.email, "wrong-pass", `${ipA}1`)).statusCode).toBe(401);
      const locked = await attempt(c.admin.email, PASSWORD, `${ipA}2`);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error).toBe("ERR_RATE_LIMITED");
      // per IP: the sixth attempt from one address is refused whatever the email
      const ipB = `${ipA}9`;
      for (let i = 0; i < 5; i++) expect((await attempt(`x${i}@nobody.test`, "whatever", ipB)).statusCode).toBe(401);
      expect((await attempt("y@nobody.test", "whatever", ipB)).statusCode).toBe(429);
    } finally {
      await limited.app.close();
    }
  });

  it("counts guesses sent in parallel before checking them: the 11th and later are refused, the right password too", async () => {
    const limited = await getTestApp({ loginMaxPerIp: 100_000, loginMaxPerEmail: 10 }, t.database);
    try {
      const c = await buildCompany(limited.app);
      const attempt = (password: string, i: number) =>
        limited.app.inject({
          method: "POST",
          url: "/api/v1/auth/login",
          payload: { email: c.admin.email, password },
          remoteAddress: `10.88.${Math.floor(i / 200)}.${i % 200}`,
        });
      const guesses = Array.from({ length: 99 }, (_, i) => attempt(`wrong-${i}`, i));
      const results = await Promise.all([...guesses, attempt(PASSWORD, 99)]);
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((s) => s === 401)).toHaveLength(10);
      expect(codes.filter((s) => s === 429)).toHaveLength(90);
      expect(codes.filter((s) => s === 200)).toHaveLength(0);
    } finally {
      await limited.app.close();
    }
  });
});
