import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { type Database, type Db, openDatabase } from "../db/client.js";
import * as schema from "../db/schema/index.js";
import { maintenanceUrl, ownPrefix, PGLITE_SNAPSHOT_ENV, templateName } from "./database-names.js";

export type TestApp = { app: FastifyInstance; database: Database; config: Config; close: () => Promise<void> };

let snapshot: Blob | null = null;

/** A PGlite of its own, in memory, loaded from the migrated and seeded snapshot global-setup made (migrated here without it, e.g. under another config). */
function openPglite(): Promise<Database> {
  const path = process.env[PGLITE_SNAPSHOT_ENV];
  if (path) snapshot ??= new Blob([readFileSync(path)]);
  return openDatabase({ url: null, dataDir: ":memory:", snapshot: snapshot ?? undefined, migrate: !snapshot });
}

/** The worker's PGlite: its files share it as every file shares the PostgreSQL database. */
let workerPglite: Promise<Database> | null = null;

/**
 * A database for one test file: the shared real PostgreSQL when TEST_DATABASE_URL is set, else the
 * PGlite of the worker (files share workers: vitest.config.ts). Loading a snapshot cost each file
 * ~1.3 s of CPU; shared, ids also stay unique across a worker's files, as on PostgreSQL, so state a
 * module keys by id never meets the same id from another file's database.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL ?? null;
  if (url) return openDatabase({ url, dataDir: ":memory:", poolSize: 4, migrate: false });
  workerPglite ??= openPglite();
  return handleOn(await workerPglite);
}

/**
 * The shared PGlite through a handle of the caller's own: closing it ends that file's use as closing
 * its pool does on PostgreSQL (whatever the file left running meets a closed database, never the next
 * file's), and leaves the PGlite open for the worker's next files.
 */
async function handleOn(shared: Database): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = (shared.db as unknown as { $client: object }).$client;
  let closed = false;
  // what a file sets on its handle (a test counting statements swaps `query`) stays on the handle: set
  // on the shared PGlite it outlived the file, and every later file of the worker met a closed handle
  const own = new Map<PropertyKey, unknown>();
  const handle = new Proxy(client, {
    set(_target, key, value) {
      own.set(key, value);
      return true;
    },
    get(target, key) {
      if (own.has(key)) return own.get(key);
      const value = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        closed ? Promise.reject(new Error("PGlite is closed (this test file's handle)")) : value.apply(target, args);
    },
  });
  const db = drizzle({ client: handle as never, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    close: async () => {
      closed = true;
    },
  };
}

let owned = 0;

/**
 * A database no other test file writes to, for files whose timed jobs act on every company (campaign
 * sends, number checks, lease shares): on the shared one another file's sweep could take their rows,
 * or theirs another file's. On PostgreSQL a copy of the seeded template, dropped on close; on PGlite
 * one loaded from the snapshot.
 */
export async function openOwnTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openPglite();
  const name = `${ownPrefix(url)}${process.pid}_${++owned}`;
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: maintenanceUrl(url) });
  await admin.connect();
  try {
    // two files copying the template at the same moment: PostgreSQL refuses the second while the first reads it
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${templateName(url)}`);
        break;
      } catch (err) {
        if (attempt < 20 && /being accessed by other users/.test((err as Error).message)) {
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          continue;
        }
        // a role without CREATEDB: the shared database, as before (global-setup said so already)
        console.warn(`no database of the file's own (${(err as Error).message}): using the shared one`);
        return openTestDatabase();
      }
    }
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  const database = await openDatabase({ url: own.toString(), dataDir: ":memory:", poolSize: 4, migrate: false });
  return {
    ...database,
    close: async () => {
      await database.close();
      const drop = new pg.Client({ connectionString: maintenanceUrl(url) });
      await drop.connect();
      // without force first: PostgreSQL waits up to 5 s for the pool's connections to finish ending,
      // where force would kill one still saying goodbye (an uncaught FATAL in the file)
      try {
        await drop.query(`drop database if exists ${name}`);
      } catch {
        await drop.query(`drop database if exists ${name} with (force)`);
      } finally {
        await drop.end();
      }
    },
  };
}

/** getTestApp on a database of the file's own (openOwnTestDatabase), dropped on close. */
export async function getIsolatedTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await openOwnTestDatabase();
  const t = await getTestApp(overrides, database);
  return {
    ...t,
    close: async () => {
      await t.close();
      await database.close();
    },
  };
}

/** A whole app on a test database, never listening unless the test asks; secrets are per file. */
export async function getTestApp(
  overrides: Partial<Config> = {},
  database?: Database,
  /** Extra routes registered before the app is ready (e.g. to exercise the permission gate). */
  extend?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  // a folder of the app's own unless the test gives one, removed on close: each file's apps left one in
  // the temporary folder, and in a test's own TMPDIR (import-limits.test.ts) it counted as a leftover
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "charla-test-"));
  const ownDir = overrides.dataDir ? null : dataDir;
  const db = database ?? (await openTestDatabase());
  const config = loadConfig(
    { ...process.env, DATABASE_URL: "", REDIS_URL: "" },
    {
      dataDir,
      jwtSecret: "test-access-secret",
      jwtRefreshSecret: "test-refresh-secret",
      secretsKey: Buffer.alloc(32, 7).toString("base64"),
      // never a developer's own OpenAI key: tests call local fake endpoints only
      openaiApiKey: "",
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
  const close = async () => {
    await app.close();
    if (!database) await db.close();
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  };
  try {
    extend?.(app);
    await app.ready();
  } catch (err) {
    // an app that refuses to boot (a test of that) leaves nothing either
    await close();
    throw err;
  }
  return { app, database: db, config, close };
}
