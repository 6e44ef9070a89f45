import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../db/client.js";
import { seed } from "../db/seed.js";
import { databaseOf, maintenanceUrl, ownPrefix, PGLITE_SNAPSHOT_ENV, templateName } from "./database-names.js";

/**
 * With TEST_DATABASE_URL the suite runs on a real PostgreSQL: the schema is recreated and migrated
 * once here, then every test file shares it (each builds its own companies), and copied as the
 * template of the files that need a database of their own (openOwnTestDatabase). Without it each
 * worker's files share an in-memory PGlite, loaded from a snapshot migrated and seeded once here (as
 * are the databases of their own).
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return pgliteSnapshot();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;");
  await client.end();
  const db = await openDatabase({ url, dataDir: ":memory:", poolSize: 1 });
  // company 1 is the platform's own, as on a real install; test companies come after it
  await seed(db.db, { adminEmail: "platform-admin@test.charla", adminPassword: "platform-admin-pass" });
  await db.close();
  const admin = new pg.Client({ connectionString: maintenanceUrl(url) });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where starts_with(datname, $1)", [
      ownPrefix(url),
    ]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    const template = templateName(url);
    await admin.query(`drop database if exists ${template} with (force)`);
    // nobody is connected to the shared database now, as a copy needs
    await admin.query(`create database ${template} template ${databaseOf(url)}`);
  } catch (err) {
    console.warn(
      `cannot make ${templateName(url)} (${(err as Error).message}): files meant to have a database of their own share this one`,
    );
  } finally {
    await admin.end();
  }
}

/**
 * PGlite's initdb and the migrations took ~8 s of each PGlite's start (more on a busy machine, where
 * files hit their hook limits); loading this dump skips both. Seeded like the PostgreSQL schema above,
 * so both modes start from the same rows. The workers read the path from the environment they inherit.
 */
async function pgliteSnapshot() {
  const dir = mkdtempSync(join(tmpdir(), "charla-pglite-"));
  const db = await openDatabase({ url: null, dataDir: ":memory:" });
  try {
    await seed(db.db, { adminEmail: "platform-admin@test.charla", adminPassword: "platform-admin-pass" });
    const dump = await db.dump?.();
    if (!dump) throw new Error("PGlite gave no dump");
    const path = join(dir, "migrated.tar");
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    process.env[PGLITE_SNAPSHOT_ENV] = path;
  } finally {
    await db.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
