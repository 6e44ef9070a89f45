import { createRequire } from "node:module";

// pg is the server's dependency; the browser suite borrows it rather than adding its own
const pg = createRequire(new URL("../../server/package.json", import.meta.url))("pg");
type Client = {
  connect(): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: the rows are whatever the test selected
  query<R = any>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
};

/** The real PostgreSQL the suite may use (CI's), or undefined: tests that need one run only then. */
export const adminUrl = process.env.TEST_DATABASE_URL;

export type ScratchDatabase = {
  /** Give this to the servers as DATABASE_URL. */
  url: string;
  /** A connection of the test's own, to look into or change what the servers stored. */
  db: Client;
  drop: () => Promise<void>;
};

/**
 * A new empty database on TEST_DATABASE_URL's server for one test file, dropped by `drop()`. `prefix`
 * lets another suite (faults/) keep its databases apart from the browser tests'.
 */
export async function scratchDatabase(name: string, prefix = "charla_e2e"): Promise<ScratchDatabase> {
  const dbName = `${prefix}_${name}_${process.pid}`;
  const admin: Client = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl as string);
  url.pathname = `/${dbName}`;
  const db: Client = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.end();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}
