import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
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

describe("migration 0026_bot_answered_message", () => {
  it("counts what live tickets received before the upgrade as answered, so the bot-turns sweep takes none of it again", async () => {
    const fresh = new PGlite({ extensions: { pg_trgm, unaccent } });
    try {
      const at = files.indexOf("0026_bot_answered_message.sql");
      expect(at).toBeGreaterThan(0);
      // as drizzle does: one transaction (a later migration locks a table, which needs one)
      await fresh.exec("begin");
      for (const file of files.slice(0, at)) await apply(fresh, file);
      await fresh.exec("commit");
      await fresh.exec("set session_replication_role = replica");
      await fresh.exec(`insert into tickets (id, company_id, contact_id, status) values
        (1, 1, 1, 'pending'), (2, 1, 2, 'open'), (3, 1, 3, 'closed'), (4, 1, 4, 'pending')`);
      await fresh.exec(`insert into messages (id, company_id, ticket_id, channel_id, from_me, created_at) values
        (10, 1, 1, 'a', false, now() - interval '5 minutes'), (11, 1, 1, 'b', false, now() - interval '1 minute'),
        (12, 1, 1, 'c', true, now()), (20, 1, 2, 'd', false, now() - interval '40 minutes'),
        (30, 1, 3, 'e', false, now() - interval '1 minute'), (40, 1, 4, 'f', false, now() - interval '3 hours')`);
      await apply(fresh, files[at]);
      const rows = await fresh.query<{ id: number; bot_answered_message_id: number | null }>(
        "select id, bot_answered_message_id from tickets order by id",
      );
      expect(rows.rows).toEqual([
        // the newest received message, not the agent's answer after it
        { id: 1, bot_answered_message_id: 11 },
        { id: 2, bot_answered_message_id: 20 },
        // closed tickets are not the bot's; older messages are past the sweep's hour anyway
        { id: 3, bot_answered_message_id: null },
        { id: 4, bot_answered_message_id: null },
      ]);
    } finally {
      await fresh.close();
    }
  });
});
