import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { pgClientErrorCode } from "./pg-errors.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({}, undefined, (app) => {
    // stand-ins for the database refusing a request: the error plugin decides what the client hears
    app.get("/api/v1/test-pg/:code", { config: { public: true } }, async (req) => {
      const err = Object.assign(new Error("database said no"), { code: (req.params as { code: string }).code });
      throw Object.assign(new Error("Failed query"), { cause: err });
    });
    app.post("/api/v1/test-pg/nul", { config: { public: true } }, async () => {
      await t.app.charla.db.execute(sql`select ${"a\u0000b"}::text`);
      return { ok: true };
    });
  });
});
afterAll(() => t.close());

describe("#pg-errors", () => {
  it("reads a NUL the database refused as ERR_INVALID_TEXT, whichever driver", async () => {
    const err = await t.app.charla.db.execute(sql`select ${"a\u0000b"}::text`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(pgClientErrorCode(err)).toBe("ERR_INVALID_TEXT");
    const res = await t.app.inject({ method: "POST", url: "/api/v1/test-pg/nul" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_INVALID_TEXT");
  });

  it("answers encoding errors 400, a cancelled statement 503, and anything else 500", async () => {
    for (const [code, status, error] of [
      ["22021", 400, "ERR_INVALID_TEXT"],
      ["22P05", 400, "ERR_INVALID_TEXT"],
      ["57014", 503, "ERR_QUERY_TIMEOUT"],
      ["42P01", 500, "ERR_INTERNAL"],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url: `/api/v1/test-pg/${code}` });
      expect([code, res.statusCode, res.json().error]).toEqual([code, status, error]);
    }
  });

  // PGlite has no timer to cancel a statement with: the timeout is PostgreSQL's alone
  it.runIf(process.env.TEST_DATABASE_URL)(
    "cancels a statement over DB_STATEMENT_TIMEOUT_MS on PostgreSQL, read as 503",
    async () => {
      const database = await openDatabase({
        url: process.env.TEST_DATABASE_URL ?? null,
        dataDir: ":memory:",
        poolSize: 1,
        migrate: false,
        statementTimeoutMs: 100,
      });
      try {
        const started = Date.now();
        const err = await database.db.execute(sql`select pg_sleep(2)`).then(
          () => null,
          (e: unknown) => e,
        );
        expect(Date.now() - started).toBeLessThan(1500);
        expect(pgClientErrorCode(err)).toBe("ERR_QUERY_TIMEOUT");
        // the connection stays usable for the next request
        expect(await database.db.execute(sql`select 1 as one`)).toBeTruthy();
      } finally {
        await database.close();
      }
    },
  );
});
