import pg from "pg";
import { openDatabase } from "../db/client.js";
import { seed } from "../db/seed.js";
import { databaseOf, maintenanceUrl, ownPrefix, templateName } from "./database-names.js";

/**
 * With TEST_DATABASE_URL the suite runs on a real PostgreSQL: the schema is recreated and migrated
 * once here, then every test file shares it (each builds its own companies), and copied as the
 * template of the files that need a database of their own (openOwnTestDatabase). Without it every
 * file gets its own in-memory PGlite.
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
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
