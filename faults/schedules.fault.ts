import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeFault, faultDatabase, type ScratchDatabase, ServerUnderTest, until, untilOnlyUs } from "./support/harness.js";

// Issue 28: scheduled messages across a SIGKILL. Hundreds of schedules fall due at once (some long
// overdue, as after a downtime; some repeating daily); the server is killed while its sweep sends them
// and started again. Each schedule must end ENVIADA with exactly one recorded message, each message's
// id must reach the simulated phone once (a send cut off after it left goes again under the same id,
// which the outbox marks `repeat`), and each repeating one must have exactly one next occurrence.
const SCHEDULES = 300;
/** The kill is ordered once this many are sent: inside the sweep, far from its end. */
const KILL_AT = 60;

type OutboxLine = { whatsappId: number; to: string; id: string; body: string; repeat?: true };

const log = (line: string) => console.log(`faults/schedules: ${line}`);

describeFault("schedules across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;
  const dir = mkdtempSync(join(tmpdir(), "charla-fault-schedules-"));
  const outbox = join(dir, "outbox.jsonl");

  beforeAll(async () => {
    database = await faultDatabase("schedules");
    // a short lease: sends the dead process held are taken over a few seconds after the restart
    server = new ServerUnderTest(database, { JOBS_INTERVAL_MS: "300", SIMULATOR_OUTBOX: outbox, CAMPAIGN_SEND_TTL_SEC: "5" });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends each due schedule exactly once, and repeats each repeating one once, when the server dies mid-sweep", async () => {
    const db = database.db;
    const started = Date.now();
    const [conn] = (
      await db.query<{ id: number; company_id: number }>("select id, company_id from whatsapps where provider = 'simulator'")
    ).rows;
    const [admin] = (await db.query<{ id: number }>("select id from users where company_id = $1 limit 1", [conn.company_id]))
      .rows;

    // --- everything due at once, committed in one transaction: the running server's next round finds it all
    await db.query("begin");
    await db.query(
      `insert into contacts (company_id, name, number)
       select $1, 'Agendado ' || g, '52155' || (80000000 + g) from generate_series(1, $2::int) g`,
      [conn.company_id, SCHEDULES],
    );
    // a third overdue by hours (a downtime), a tenth repeating daily
    const made = await db.query<{ id: number; repeat: string }>(
      `insert into schedules (company_id, contact_id, whatsapp_id, user_id, body, send_at, repeat, timezone)
       select c.company_id, c.id, $2, $3, 'Recordatorio {{firstName}} ' || c.n,
              now() - case when c.n % 3 = 0 then interval '5 hours' else interval '10 seconds' end,
              case when c.n % 10 = 0 then 'daily' else 'none' end, 'America/Noronha'
         from (select id, company_id, (substring(number from 6))::int - 80000000 as n from contacts
                where company_id = $1 and number like '5215580%') c
       returning id, repeat`,
      [conn.company_id, conn.id, admin.id],
    );
    await db.query("commit");
    const ids = made.rows.map((r) => r.id);
    const repeating = made.rows.filter((r) => r.repeat === "daily").map((r) => r.id);
    expect(ids).toHaveLength(SCHEDULES);

    const progress = async () => {
      const { rows } = await db.query<{ sent: number; sending: number; failed: number; recorded: number }>(
        `select count(*) filter (where status = 'ENVIADA')::int as sent,
                count(*) filter (where status = 'ENVIANDO')::int as sending,
                count(*) filter (where status = 'ERRO')::int as failed,
                count(message_id)::int as recorded
           from schedules where id = any($1)`,
        [ids],
      );
      return rows[0];
    };

    // --- the kill, once the sweep is well under way
    await until("the sweep under way", async () => (await progress()).sent >= KILL_AT, 60_000, 10);
    await server.kill();
    await untilOnlyUs(database);
    const atKill = await progress();
    log(
      `kill after ${((Date.now() - started) / 1000).toFixed(1)} s: ${atKill.sent}/${SCHEDULES} sent, ` +
        `${atKill.sending} being sent, ${atKill.recorded} messages recorded`,
    );
    expect(atKill.sent).toBeGreaterThanOrEqual(KILL_AT);
    expect(atKill.sent).toBeLessThan(SCHEDULES);

    // --- a new process finishes what is left (the dead one's leases lapse after 5 s)
    await server.start();
    await until("every schedule sent", async () => (await progress()).sent === SCHEDULES, 120_000, 200);
    log(`restart: all sent ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);
    expect((await progress()).failed).toBe(0);

    // --- exactly once: one message per schedule, the one it recorded, its variable filled
    const messages = await db.query<{ schedule_id: number; n: number; kept: number; channel_id: string; body: string }>(
      `select s.id as schedule_id, count(m.id)::int as n,
              count(*) filter (where m.id = s.message_id)::int as kept,
              min(m.channel_id) as channel_id, min(m.body) as body
         from schedules s join messages m on m.company_id = s.company_id and m.client_id = 'schedule-' || s.id
        where s.id = any($1) group by s.id`,
      [ids],
    );
    expect(messages.rows).toHaveLength(SCHEDULES);
    expect(messages.rows.filter((r) => r.n !== 1 || r.kept !== 1)).toEqual([]);
    expect(messages.rows.filter((r) => !/^Recordatorio Agendado \d+$/.test(r.body))).toEqual([]);
    const late = await db.query<{ n: number }>("select count(*)::int as n from schedules where id = any($1) and late", [ids]);
    expect(late.rows[0].n).toBeGreaterThanOrEqual(Math.floor(SCHEDULES / 3));

    // --- repeats: exactly one next occurrence each, a day later, waiting
    const next = await db.query<{ previous_id: number; n: number; status: string }>(
      `select previous_id, count(*)::int as n, min(status) as status from schedules
        where previous_id = any($1) group by previous_id`,
      [repeating],
    );
    expect(next.rows).toHaveLength(repeating.length);
    expect(next.rows.filter((r) => r.n !== 1 || r.status !== "PENDENTE")).toEqual([]);

    // --- the phones: each schedule's message id sent once (a repeat is the same id again), nothing else
    const lines = readFileSync(outbox, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as OutboxLine)
      .filter((l) => l.whatsappId === conn.id);
    const firstSends = new Map<string, number>();
    for (const l of lines.filter((x) => !x.repeat)) firstSends.set(l.id, (firstSends.get(l.id) ?? 0) + 1);
    const recorded = new Set(messages.rows.map((r) => r.channel_id));
    expect([...firstSends].filter(([, n]) => n !== 1)).toEqual([]);
    expect(messages.rows.filter((r) => !firstSends.has(r.channel_id)).map((r) => r.schedule_id)).toEqual([]);
    expect([...firstSends.keys()].filter((id) => !recorded.has(id))).toEqual([]);
    const repeats = lines.filter((l) => l.repeat).length;
    log(
      `end: ${SCHEDULES} schedules sent once each (${late.rows[0].n} late), ${next.rows.length} next occurrences; ` +
        `outbox ${lines.length} lines, ${repeats} repeated ids (cut off after they left); ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s in all`,
    );
  });
});
