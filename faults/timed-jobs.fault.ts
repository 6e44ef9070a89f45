import { afterAll, beforeAll, expect, it } from "vitest";
import { describeFault, faultDatabase, type ScratchDatabase, ServerUnderTest, until, untilOnlyUs } from "./support/harness.js";

// The timed jobs (delayed routing, expiry) across a SIGKILL: 600 open tickets due to expire and 600
// queue-less pending tickets due to be routed, the server killed while it sweeps them and started again.
// Each ticket must be closed or moved exactly once, each expiry message recorded exactly once.
const PER_KIND = 600;
const EXPIRY_TEXT = "Cerramos su atención por inactividad, {{firstName}}.";

const log = (line: string) => console.log(`faults/timed-jobs: ${line}`);

describeFault("timed jobs across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;

  beforeAll(async () => {
    database = await faultDatabase("jobs");
    server = new ServerUnderTest(database, { JOBS_INTERVAL_MS: "300" });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("closes each due ticket and moves each waiting one exactly once, one expiry message each, when the server dies mid-sweep", async () => {
    const db = database.db;
    const started = Date.now();
    const [conn] = (
      await db.query<{ id: number; company_id: number }>("select id, company_id from whatsapps where provider = 'simulator'")
    ).rows;
    const [admin] = (await db.query<{ id: number }>("select id from users where company_id = $1 limit 1", [conn.company_id]))
      .rows;

    // --- everything due at once, committed in one transaction: the running server's next round finds it all
    await db.query("begin");
    const [queue] = (
      await db.query<{ id: number }>(
        "insert into queues (company_id, name, color) values ($1, 'Recepción', '#1E88E5') returning id",
        [conn.company_id],
      )
    ).rows;
    await db.query(
      `update whatsapps set expires_ticket = 2, expires_inactive_message = $2, time_send_queue = 10, send_id_queue = $3
        where id = $1`,
      [conn.id, EXPIRY_TEXT, queue.id],
    );
    await db.query(
      `insert into contacts (company_id, name, number)
       select $1, 'Cliente ' || g, '52155' || (60000000 + g) from generate_series(1, $2::int * 2) g`,
      [conn.company_id, PER_KIND],
    );
    // odd contacts get an open ticket (expiry), even ones a queue-less pending one (routing); 3 h old
    const created = await db.query<{ id: number; status: string }>(
      `insert into tickets (company_id, contact_id, whatsapp_id, status, user_id, created_at, updated_at)
       select $1, c.id, $2, case when c.n % 2 = 1 then 'open' else 'pending' end,
              case when c.n % 2 = 1 then $3::int end, now() - interval '3 hours', now() - interval '3 hours'
         from (select id, (substring(number from 6))::int - 60000000 as n from contacts
                where company_id = $1 and number like '5215560%') c
       returning id, status`,
      [conn.company_id, conn.id, admin.id],
    );
    await db.query(
      `insert into ticket_tracking (company_id, ticket_id, whatsapp_id, user_id, queued_at, started_at)
       select company_id, id, whatsapp_id, user_id, created_at, case when status = 'open' then created_at end
         from tickets where company_id = $1 and whatsapp_id = $2`,
      [conn.company_id, conn.id],
    );
    // the open ones: our last message, silent for 3 hours (expiresTicket is 2)
    await db.query(
      `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, channel_id, body, from_me, read, ack, created_at, updated_at)
       select company_id, id, contact_id, whatsapp_id, 'fault-out-' || id, '¿Algo más?', true, true, 3, created_at, created_at
         from tickets where company_id = $1 and status = 'open'`,
      [conn.company_id],
    );
    await db.query("commit");
    const expiring = created.rows.filter((r) => r.status === "open").map((r) => r.id);
    const routing = created.rows.filter((r) => r.status === "pending").map((r) => r.id);
    expect(expiring).toHaveLength(PER_KIND);
    expect(routing).toHaveLength(PER_KIND);

    const progress = async () => {
      const { rows } = await db.query<{ closed: number; moved: number; recorded: number; queued: number }>(
        `select (select count(*)::int from tickets where id = any($1) and status = 'closed') as closed,
                (select count(*)::int from tickets where id = any($2) and queue_id = $3) as moved,
                (select count(*)::int from messages where ticket_id = any($1) and is_automatic) as recorded,
                (select count(*)::int from messages where ticket_id = any($1) and is_automatic and ack = 0) as queued`,
        [expiring, routing, queue.id],
      );
      return rows[0];
    };

    // --- the kill, as soon as both sweeps have started
    await until(
      "both sweeps under way",
      async () => {
        const p = await progress();
        return p.closed > 0 && p.moved > 0;
      },
      30_000,
      10,
    );
    await server.kill();
    await untilOnlyUs(database);
    const atKill = await progress();
    log(
      `kill after ${((Date.now() - started) / 1000).toFixed(1)} s: ${atKill.closed}/${PER_KIND} closed, ` +
        `${atKill.moved}/${PER_KIND} moved, ${atKill.recorded} expiry messages recorded (${atKill.queued} not yet handed over)`,
    );
    // the kill landed mid-sweep: work done and work left on both sides
    expect(atKill.closed).toBeGreaterThan(0);
    expect(atKill.moved).toBeGreaterThan(0);
    expect(atKill.closed + atKill.moved).toBeLessThan(2 * PER_KIND);
    // a close and its message commit together
    expect(atKill.recorded).toBe(atKill.closed);

    // --- a new process finishes what is left
    await server.start();
    await until(
      "every ticket closed or moved",
      async () => {
        const p = await progress();
        return p.closed === PER_KIND && p.moved === PER_KIND;
      },
      40_000,
      100,
    );
    log(`restart: all done ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);

    // --- exactly once: one expiry message per closed ticket, one finished episode, nothing on the routed ones
    const perTicket = await db.query<{ ticket_id: number; n: number; body: string }>(
      `select ticket_id, count(*)::int as n, min(body) as body from messages
        where ticket_id = any($1) and is_automatic group by ticket_id`,
      [expiring],
    );
    expect(perTicket.rows).toHaveLength(PER_KIND);
    expect(perTicket.rows.filter((r) => r.n !== 1)).toEqual([]);
    expect(perTicket.rows.filter((r) => !/^Cerramos su atención por inactividad, Cliente\.$/.test(r.body))).toEqual([]);
    const episodes = await db.query<{ ticket_id: number; n: number; open: number }>(
      `select ticket_id, count(*)::int as n, count(*) filter (where finished_at is null)::int as open
         from ticket_tracking where ticket_id = any($1) group by ticket_id`,
      [[...expiring, ...routing]],
    );
    expect(episodes.rows.filter((r) => r.n !== 1)).toEqual([]);
    expect(episodes.rows.filter((r) => expiring.includes(r.ticket_id) && r.open !== 0)).toEqual([]);
    const routed = await db.query<{ id: number }>(
      `select t.id from tickets t join ticket_tracking tt on tt.ticket_id = t.id
        where t.id = any($1) and (t.status <> 'pending' or t.queue_id is distinct from $2 or tt.queue_id is distinct from $2)`,
      [routing, queue.id],
    );
    expect(routed.rows).toEqual([]);
    const acks = await db.query<{ ack: number; ack_error: string | null; n: number }>(
      `select ack, ack_error, count(*)::int as n from messages where ticket_id = any($1) and is_automatic
        group by ack, ack_error order by ack`,
      [expiring],
    );
    log(`expiry messages by ack: ${acks.rows.map((r) => `${r.ack}${r.ack_error ? ` ${r.ack_error}` : ""}: ${r.n}`).join(", ")}`);
    const strays = await db.query("select id from messages where ticket_id = any($1) and is_automatic", [routing]);
    expect(strays.rows).toEqual([]);
  });
});
