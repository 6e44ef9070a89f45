import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const folder = fileURLToPath(new URL("../../drizzle", import.meta.url));
const files = readdirSync(folder)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();

/** Runs one migration file the way drizzle does: statement by statement. */
async function apply(db: PGlite, file: string) {
  const text = readFileSync(`${folder}/${file}`, "utf8");
  for (const statement of text.split("--> statement-breakpoint")) if (statement.trim()) await db.exec(statement);
}

let db: PGlite;
beforeAll(async () => {
  db = new PGlite({ extensions: { pg_trgm } });
  await db.waitReady;
});
afterAll(() => db.close());

describe("migration 0007_ack_scale", () => {
  it("moves sent messages' acks to WhatsApp's scale and leaves received ones alone", async () => {
    const at = files.indexOf("0007_ack_scale.sql");
    expect(at).toBeGreaterThan(0);
    for (const file of files.slice(0, at)) await apply(db, file);
    // rows as the old scale stored them (0 pending, 1 server, 2 delivered, 3 read, 4 played); the
    // tickets they belong to do not matter here
    await db.exec("set session_replication_role = replica");
    await db.exec(`insert into messages (company_id, ticket_id, channel_id, from_me, ack) values
      (1, 1, 'out-0', true, 0), (1, 1, 'out-1', true, 1), (1, 1, 'out-2', true, 2),
      (1, 1, 'out-3', true, 3), (1, 1, 'out-4', true, 4), (1, 1, 'in-0', false, 0)`);
    await apply(db, files[at]);
    const rows = await db.query<{ channel_id: string; ack: number; ack_error: string | null }>(
      "select channel_id, ack, ack_error from messages order by channel_id",
    );
    expect(rows.rows).toEqual([
      { channel_id: "in-0", ack: 0, ack_error: null },
      { channel_id: "out-0", ack: 1, ack_error: null },
      { channel_id: "out-1", ack: 2, ack_error: null },
      // delivered is now 3 (two grey ticks), read 4 and played 5 (two blue ticks)
      { channel_id: "out-2", ack: 3, ack_error: null },
      { channel_id: "out-3", ack: 4, ack_error: null },
      { channel_id: "out-4", ack: 5, ack_error: null },
    ]);
  });
});
