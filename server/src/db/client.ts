import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { preparingClient } from "./prepared.js";
import * as schema from "./schema/index.js";

export type Schema = typeof schema;
/** Both drivers expose the same Drizzle surface; code never asks which one it has. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbKind = "pglite" | "postgres";

export type Database = {
  db: Db;
  kind: DbKind;
  close: () => Promise<void>;
  /** PGlite only: its data directory as a tarball, for `snapshot` (the tests' migrated template). */
  dump?: () => Promise<Blob>;
};

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/**
 * PostgreSQL when a URL is given, else PGlite (Postgres in WASM) under `dataDir/pglite`, or in memory
 * for `dataDir === ":memory:"` (tests). The same migrations run on both.
 */
export async function openDatabase(opts: {
  url: string | null;
  dataDir: string;
  poolSize?: number;
  /** false when someone else already migrated (parallel test files on one server). */
  migrate?: boolean;
  /**
   * PostgreSQL cancels any statement of the pool running longer than this (0: never), so one
   * expensive request cannot hold a connection and slow every tenant; the client hears 503
   * ERR_QUERY_TIMEOUT. PGlite has no timer to cancel with: it ignores this.
   */
  statementTimeoutMs?: number;
  /**
   * PGlite only: start from this dump of a migrated database (a `dump()` tarball) instead of an empty
   * one. Tests load one per file: PGlite's initdb and the migrations took ~8 s of each file's start.
   */
  snapshot?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    if (opts.migrate !== false) {
      // migrations may build indexes on big tables: their own connection, with no statement timeout
      const migrator = new pg.Pool({ connectionString: opts.url, max: 1 });
      try {
        await migrate(drizzle(migrator), { migrationsFolder });
      } finally {
        await migrator.end();
      }
    }
    const timeout = opts.statementTimeoutMs ?? 0;
    const pool = new pg.Pool({
      Client: preparingClient(pg.Client),
      connectionString: opts.url,
      // JIT compiles a plan whose estimate passes 100k: a parameterised LIMIT can make a 1 ms page
      // look that costly, and the compiling took 33 ms. Index-driven statements gain nothing from it.
      options: "-c jit=off",
      max: opts.poolSize ?? 10,
      ...(timeout > 0 ? { statement_timeout: timeout } : {}),
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    return { db, kind: "postgres", close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let dir: string | undefined;
  if (opts.dataDir !== ":memory:") {
    dir = join(opts.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
  }
  // the migrations create pg_trgm and unaccent; PGlite must have their bundles loaded to allow that
  const client = new PGlite({ dataDir: dir, extensions: { pg_trgm, unaccent }, loadDataDir: opts.snapshot });
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  if (opts.migrate !== false) await migrate(drizzle(client), { migrationsFolder });
  // uncompressed: loading a gzipped one measured no faster, and the tarball stays in one file on disk
  return { db, kind: "pglite", close: () => client.close(), dump: () => client.dumpDataDir("none") };
}

/** `count(*)` arrives as a number from PGlite and as a string from node-postgres. */
export function toCount(value: unknown): number {
  return typeof value === "number" ? value : Number(value ?? 0);
}
