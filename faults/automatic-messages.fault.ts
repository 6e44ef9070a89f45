import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  ADMIN,
  describeFault,
  faultDatabase,
  runBounded,
  type ScratchDatabase,
  ServerUnderTest,
  until,
  untilOnlyUs,
} from "./support/harness.js";
import { deliver, type SimulatorEvent } from "./support/simulator.js";

// Issue 27: automatic messages across a SIGKILL. A burst of new conversations, each greeted by the bot
// with its menu, mixed with answers to rating questions, each thanked by the connection's completion
// message, is cut by a SIGKILL; the server starts again and every event is delivered once more, as a
// reconnecting phone does. Every automatic message must then exist exactly once, be sent (acked), and
// appear once in the simulated phones' outbox: a send the kill cut off after it left goes again under
// the same id, which the phone shows once (the outbox marks it `repeat`). A first message stored before
// the kill whose bot turn the kill cut off is not replayed (the pipeline stored it): the owed-turn sweep
// (server/src/jobs/bot-turns.ts) must greet it after the restart, once.
const NEW_CONVERSATIONS = 300;
const RATINGS = 150;
const CONCURRENCY = 16;
/** The kill is ordered once this many automatic messages are recorded: inside the burst, far from its end. */
const KILL_AT = 120;
const GREETING = "Hola, elija un área:";
const THANKS = "Gracias por su calificación";

type OutboxLine = { whatsappId: number; to: string; id: string; body: string; repeat?: true };

const log = (line: string) => console.log(`faults/automatic-messages: ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describeFault("automatic messages across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;
  const dir = mkdtempSync(join(tmpdir(), "charla-fault-automatic-"));
  const outbox = join(dir, "outbox.jsonl");

  beforeAll(async () => {
    database = await faultDatabase("automatic");
    server = new ServerUnderTest(database, { JOBS_INTERVAL_MS: "300", SIMULATOR_OUTBOX: outbox });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("records, sends and shows each bot greeting and rating reply once when the server dies mid-burst", async () => {
    const db = database.db;
    const started = Date.now();
    const [conn] = (
      await db.query<{ id: number; company_id: number }>("select id, company_id from whatsapps where provider = 'simulator'")
    ).rows;
    const [admin] = (await db.query<{ id: number }>("select id from users where email = $1", [ADMIN.email])).rows;

    // --- the world: two areas offered by the connection (the bot lists them), its completion message,
    // and RATINGS contacts whose resolved ticket waits for their rating
    await db.query("update whatsapps set greeting_message = $2, complation_message = $3 where id = $1", [
      conn.id,
      GREETING,
      THANKS,
    ]);
    const queues = await db.query<{ id: number }>(
      `insert into queues (company_id, name, color) values ($1, 'Ventas', '#0a0'), ($1, 'Soporte', '#00a') returning id`,
      [conn.company_id],
    );
    for (const q of queues.rows)
      await db.query("insert into whatsapp_queues (company_id, whatsapp_id, queue_id) values ($1, $2, $3)", [
        conn.company_id,
        conn.id,
        q.id,
      ]);
    const raters = await db.query<{ id: number; number: string }>(
      `insert into contacts (company_id, name, number)
       select $1, 'Calificador ' || g, '5215560' || lpad(g::text, 6, '0') from generate_series(1, $2::int) g
       returning id, number`,
      [conn.company_id, RATINGS],
    );
    const rated = await db.query<{ id: number; number: string }>(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, awaiting_rating, rating_asks)
       select $1, c, $3, $4, $5, 'closed', true, 1 from unnest($2::int[]) c
       returning id, (select number from contacts where contacts.id = contact_id) as number`,
      [conn.company_id, raters.rows.map((r) => r.id), conn.id, queues.rows[0].id, admin.id],
    );
    expect(rated.rows).toHaveLength(RATINGS);

    const events: SimulatorEvent[] = [];
    for (let i = 0; i < NEW_CONVERSATIONS; i++) {
      events.push({ id: `auto-new-${i}`, number: `5215570${String(i).padStart(6, "0")}`, name: `Nuevo ${i}`, body: "hola" });
      // a rating answer between every second new conversation: both kinds in flight together
      const r = rated.rows[i / 2];
      if (i % 2 === 0 && r) events.push({ id: `auto-rate-${i / 2}`, number: r.number, name: `Calificador ${i / 2}`, body: "3" });
    }

    const automatic = async () => {
      const { rows } = await db.query<{ queued: number; all: number }>(
        `select count(*) filter (where ack = 0)::int as queued, count(*)::int as all
           from messages where whatsapp_id = $1 and is_automatic`,
        [conn.id],
      );
      return rows[0];
    };
    // new conversations whose first message is stored and the bot has not answered (yet)
    const unanswered = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `select count(*) as n from tickets t join contacts c on c.id = t.contact_id
              where t.whatsapp_id = $1 and c.number like '5215570%' and t.bot_answered_message_id is null`,
            [conn.id],
          )
        ).rows[0].n,
      );
    const greeted = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `select count(distinct m.ticket_id) as n from messages m join contacts c on c.id = m.contact_id
              where m.whatsapp_id = $1 and m.is_automatic and c.number like '5215570%'`,
            [conn.id],
          )
        ).rows[0].n,
      );
    const deliveryJobs = async () => {
      const { rows } = await db.query<{ state: string; n: number }>(
        "select state, count(*)::int as n from jobs where kind = 'message.deliver' group by state",
      );
      return Object.fromEntries(rows.map((r) => [r.state, r.n])) as Record<string, number | undefined>;
    };

    // --- the burst, and the kill inside it
    let token = await server.login();
    let killOrdered = false;
    let burstOver = false;
    const unexpected: string[] = [];
    const burst = runBounded(
      events,
      CONCURRENCY,
      async (event) => {
        const d = await deliver(server.url, token, conn.id, event);
        if (d.kind === "failed" && killOrdered) return;
        if (d.kind !== "answered" || d.status !== 201) unexpected.push(`${event.id}: ${JSON.stringify(d).slice(0, 200)}`);
      },
      () => killOrdered,
    ).finally(() => {
      burstOver = true;
    });
    await until(
      `${KILL_AT} automatic messages recorded`,
      async () => burstOver || (await automatic()).all >= KILL_AT,
      120_000,
      20,
    );
    const [lease] = (await db.query<{ owner: string }>("select owner from session_leases where whatsapp_id = $1", [conn.id]))
      .rows;
    killOrdered = true;
    await server.kill();
    const sent = await burst;
    await untilOnlyUs(database);
    const atKill = await automatic();
    const jobsAtKill = await deliveryJobs();
    const outboxAtKill = readFileSync(outbox, "utf8").split("\n").filter(Boolean).length;
    const owedAtKill = await unanswered();
    log(
      `kill after ${seconds(Date.now() - started)}: ${sent} of ${events.length} events sent, ${atKill.all} automatic ` +
        `messages recorded, ${atKill.queued} of them still queued; delivery jobs ${JSON.stringify(jobsAtKill)}; ` +
        `${outboxAtKill} outbox lines; ${owedAtKill} stored first messages without the bot's turn`,
    );
    expect(unexpected.slice(0, 10), server.logs().slice(-4000)).toEqual([]);
    // the kill landed mid-burst, with automatic messages recorded and not yet sent
    expect(atKill.all).toBeGreaterThanOrEqual(KILL_AT);
    expect(sent).toBeLessThan(events.length);
    expect(atKill.queued + (jobsAtKill.running ?? 0) + (jobsAtKill.pending ?? 0)).toBeGreaterThan(0);

    // --- a new process takes the session once the dead one's lease lapses, the jobs send what was left
    await server.start();
    await until(
      "the restarted server to hold the simulator session",
      async () =>
        (
          await db.query("select 1 from session_leases where whatsapp_id = $1 and owner <> $2 and expires_at > now()", [
            conn.id,
            lease?.owner ?? "",
          ])
        ).rows.length === 1,
      40_000,
    );
    token = await server.login();
    // every event once more, as a phone reconnecting replays what it cannot know was stored
    await runBounded(events, CONCURRENCY, async (event) => {
      const d = await deliver(server.url, token, conn.id, event);
      if (d.kind !== "answered" || (d.status !== 201 && d.status !== 200))
        unexpected.push(`replay ${event.id}: ${JSON.stringify(d).slice(0, 200)}`);
    });
    expect(unexpected.slice(0, 10), server.logs().slice(-4000)).toEqual([]);
    // the turns the kill cut off are owed 30 s after their message (TURN_OWED_AFTER_SEC), found within
    // the sweep's 10 s, then sent
    await until(
      "every new conversation greeted, every automatic message sent and every delivery job done",
      async () => {
        const jobs = await deliveryJobs();
        return (await greeted()) === NEW_CONVERSATIONS && (await automatic()).queued === 0 && !jobs.pending && !jobs.running;
      },
      90_000,
      250,
    );
    log(`settled ${seconds(Date.now() - started)} after the start; delivery jobs ${JSON.stringify(await deliveryJobs())}`);

    // --- the database: each rating thanked once, each conversation greeted at most once, all sent
    const rows = (
      await db.query<{ id: number; ticket_id: number; channel_id: string; body: string; ack: number; number: string }>(
        `select m.id, m.ticket_id, m.channel_id, m.body, m.ack, c.number
           from messages m join contacts c on c.id = m.contact_id
          where m.whatsapp_id = $1 and m.is_automatic order by m.id`,
        [conn.id],
      )
    ).rows;
    expect(rows.filter((r) => r.ack < 1).map((r) => ({ id: r.id, ack: r.ack }))).toEqual([]);
    const ratedTickets = new Set(rated.rows.map((r) => r.id));
    const thanks = rows.filter((r) => ratedTickets.has(r.ticket_id));
    expect(thanks.filter((r) => r.body !== THANKS)).toEqual([]);
    const ratings = await db.query<{ ticket_id: number; n: number }>(
      "select ticket_id, count(*)::int as n from user_ratings where ticket_id = any($1) group by ticket_id",
      [[...ratedTickets]],
    );
    // every rating answer stored (the replay brought the ones cut off), once, and thanked once
    expect(ratings.rows).toHaveLength(RATINGS);
    expect(ratings.rows.filter((r) => r.n !== 1)).toEqual([]);
    expect(thanks).toHaveLength(RATINGS);
    expect(new Set(thanks.map((r) => r.ticket_id)).size).toBe(RATINGS);

    const greetings = rows.filter((r) => !ratedTickets.has(r.ticket_id));
    expect(greetings.filter((r) => !r.body.startsWith(GREETING))).toEqual([]);
    const perTicket = new Map<number, number>();
    for (const g of greetings) perTicket.set(g.ticket_id, (perTicket.get(g.ticket_id) ?? 0) + 1);
    expect([...perTicket].filter(([, n]) => n !== 1)).toEqual([]);
    // no bot turn lost: every new conversation's first message greeted, the ones the kill cut off included
    expect(perTicket.size).toBe(NEW_CONVERSATIONS);
    expect(await unanswered()).toBe(0);
    const newTickets = Number(
      (
        await db.query<{ n: string }>(
          "select count(*) as n from tickets t join contacts c on c.id = t.contact_id where t.whatsapp_id = $1 and c.number like '5215570%'",
          [conn.id],
        )
      ).rows[0].n,
    );
    expect(newTickets).toBe(NEW_CONVERSATIONS);

    // --- the phones: each automatic message's id sent once (a repeat is the same id again), nothing else
    const lines = readFileSync(outbox, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as OutboxLine)
      .filter((l) => l.whatsappId === conn.id);
    const firstSends = new Map<string, number>();
    for (const l of lines.filter((x) => !x.repeat)) firstSends.set(l.id, (firstSends.get(l.id) ?? 0) + 1);
    const repeats = lines.filter((l) => l.repeat).length;
    expect([...firstSends].filter(([, n]) => n !== 1)).toEqual([]);
    expect(rows.filter((r) => !firstSends.has(r.channel_id)).map((r) => r.id)).toEqual([]);
    const recorded = new Set(rows.map((r) => r.channel_id));
    expect([...firstSends.keys()].filter((id) => !recorded.has(id))).toEqual([]);
    expect(lines.filter((l) => l.repeat && !recorded.has(l.id))).toEqual([]);
    log(
      `end: ${rows.length} automatic messages (${thanks.length} rating replies, ${greetings.length} greetings of ` +
        `${NEW_CONVERSATIONS} conversations; ${owedAtKill} turns cut off by the kill taken after the restart, ` +
        `${NEW_CONVERSATIONS - perTicket.size} lost), each recorded once and sent; outbox ${lines.length} lines, ` +
        `${repeats} repeated ids (cut off after they left); ${seconds(Date.now() - started)} in all`,
    );
  });
});
