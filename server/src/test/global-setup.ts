import pg from "pg";
import { openDatabase } from "../db/client.js";
import { seed } from "../db/seed.js";

/**
 * With TEST_DATABASE_URL the suite runs on a real PostgreSQL: the schema is recreated and migrated
 * once here, then every test file shares it (each builds its own companies). Without it every file
 * gets its own in-memory PGlite.
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
}
