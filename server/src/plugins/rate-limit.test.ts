import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp, openTestDatabase } from "../test/app.js";
import { as, buildCompany, buildUser, login } from "../test/factories.js";
import type { Database } from "../db/client.js";
import { WEBHOOK_IP_FACTOR, WEBHOOK_PATH } from "./rate-limit.js";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function withApp(overrides: Parameters<typeof getTestApp>[0], fn: (t: TestApp) => Promise<void>) {
  const t = await getTestApp(overrides, database);
  try {
    await fn(t);
  } finally {
    await t.app.close();
  }
}

describe("API rate limits", () => {
  it("refuses an address over its limit with 429 ERR_RATE_LIMITED and Retry-After, before authentication", async () => {
    await withApp({ apiMaxPerIp: 5 }, async (t) => {
      const ip = randomIp();
      const get = (remoteAddress: string) => t.app.inject({ method: "GET", url: "/api/v1/auth/me", remoteAddress });
      for (let i = 0; i < 5; i++) expect((await get(ip)).statusCode).toBe(401);
      const refused = await get(ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe("ERR_RATE_LIMITED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
      // another address is not affected, and the web app and health check are never counted
      expect((await get(randomIp())).statusCode).toBe(401);
      expect((await t.app.inject({ method: "GET", url: "/healthz", remoteAddress: ip })).statusCode).toBe(200);
    });
  });

  it("counts Meta's webhook calls apart, under a bound of their own well above the API's", async () => {
    await withApp({ apiMaxPerIp: 2 }, async (t) => {
      const ip = randomIp();
      const hook = () => t.app.inject({ method: "GET", url: `${WEBHOOK_PATH}no-such-key?hub.mode=subscribe`, remoteAddress: ip });
      const bound = 2 * WEBHOOK_IP_FACTOR;
      for (let i = 0; i < bound; i++) expect((await hook()).statusCode).not.toBe(429);
      expect((await hook()).statusCode).toBe(429);
      // the address's API calls keep their own count
      expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/me", remoteAddress: ip })).statusCode).toBe(401);
    });
  });

  it("refuses a user over their limit while a colleague behind the same address goes on", async () => {
    await withApp({ apiMaxPerUser: 3 }, async (t) => {
      const c = await buildCompany(t.app);
      const a = await login(t.app, await buildUser(t.app, c.id));
      const b = await login(t.app, await buildUser(t.app, c.id));
      const me = (s: typeof a) => as(t.app, s, { method: "GET", url: "/api/v1/auth/me" });
      for (let i = 0; i < 3; i++) expect((await me(a)).statusCode).toBe(200);
      const refused = await me(a);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe("ERR_RATE_LIMITED");
      expect(refused.headers["retry-after"]).toBeDefined();
      expect((await me(b)).statusCode).toBe(200);
    });
  });

  it.skipIf(!process.env.REDIS_URL)("shares the counts between processes through Redis", async () => {
    const redisUrl = process.env.REDIS_URL ?? null;
    const one = await getTestApp({ apiMaxPerIp: 4, redisUrl }, database);
    const two = await getTestApp({ apiMaxPerIp: 4, redisUrl }, database);
    try {
      const ip = randomIp();
      const get = (t: TestApp) => t.app.inject({ method: "GET", url: "/api/v1/auth/me", remoteAddress: ip });
      for (let i = 0; i < 2; i++) expect((await get(one)).statusCode).toBe(401);
      for (let i = 0; i < 2; i++) expect((await get(two)).statusCode).toBe(401);
      expect((await get(one)).statusCode).toBe(429);
      expect((await get(two)).statusCode).toBe(429);
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });
});
