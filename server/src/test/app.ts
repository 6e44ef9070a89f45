import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";

export type TestApp = { app: FastifyInstance; database: Database; config: Config; close: () => Promise<void> };

/** A database for one test file: the shared real PostgreSQL when TEST_DATABASE_URL is set, else PGlite in memory. */
export function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL ?? null;
  return openDatabase({ url, dataDir: ":memory:", poolSize: 4, migrate: !url });
}

/** A whole app on a test database, never listening unless the test asks; secrets are per file. */
export async function getTestApp(
  overrides: Partial<Config> = {},
  database?: Database,
  /** Extra routes registered before the app is ready (e.g. to exercise the permission gate). */
  extend?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "charla-test-"));
  const db = database ?? (await openTestDatabase());
  const config = loadConfig(
    { ...process.env, DATABASE_URL: "", REDIS_URL: "" },
    {
      dataDir,
      jwtSecret: "test-access-secret",
      jwtRefreshSecret: "test-refresh-secret",
      loginMaxPerIp: 100_000,
      loginMaxPerEmail: 100_000,
      apiMaxPerIp: 1_000_000,
      apiMaxPerUser: 1_000_000,
      refreshReuseGraceSec: 0,
      webDist: null,
      logLevel: "warn",
      // timed jobs act on every company of the shared database: tests run their sweeps themselves
      jobsIntervalMs: 0,
      ...overrides,
    },
  );
  const app = await buildApp(config, { database: db, seed: false, logger: false });
  extend?.(app);
  await app.ready();
  return {
    app,
    database: db,
    config,
    close: async () => {
      await app.close();
      if (!database) await db.close();
    },
  };
}
