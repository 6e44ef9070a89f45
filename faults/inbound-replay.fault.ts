import { afterAll, beforeAll, expect, it } from "vitest";
import {
  describeFault,
  faultDatabase,
  runBounded,
  type ScratchDatabase,
  ServerUnderTest,
  until,
  untilOnlyUs,
} from "./support/harness.js";
import { type Delivery, deliver, type SimulatorEvent } from "./support/simulator.js";

// Issue 9: 10k customer messages in flight on the simulator connection, the server SIGKILLed
// mid-burst and started again, then every event delivered once more with its channel id, as a driver
// reconnecting after a crash replays what it cannot know was stored. The database must end with each
// message exactly once and every ticket's unread counter equal to its unread messages.
const CONTACTS = 200;
const PER_CONTACT = 50;
const TOTAL = CONTACTS * PER_CONTACT;
const CONCURRENCY = 16;
/** The kill is ordered once this many messages are committed: well inside the burst, far from its end. */
const KILL_AT = 4_000;
/** In the replay every 10th event arrives twice at once: a phone re-sending while its first delivery is still being written. */
const DOUBLED_EVERY = 10;

const numberOf = (contact: number) => `52155${String(40_000_000 + contact)}`;

/** Message `seq` of every contact before message `seq + 1` of any: all 200 conversations grow together. */
function burstEvents(): SimulatorEvent[] {
  const events: SimulatorEvent[] = [];
  for (let seq = 0; seq < PER_CONTACT; seq++)
    for (let contact = 0; contact < CONTACTS; contact++)
      events.push({
        id: `fault-in-${contact}-${seq}`,
        number: numberOf(contact),
        name: `Cliente ${contact}`,
        body: `Mensaje ${seq} del cliente ${contact}`,
      });
  return events;
}

/** A fixed permutation (mulberry32), so a failing order can be run again. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const log = (line: string) => console.log(`faults/inbound-replay: ${line}`);

const describeDelivery = (id: string, d: Delivery) =>
  d.kind === "failed" ? `${id}: connection failed (${d.error})` : `${id}: ${d.status} ${d.body.slice(0, 200)}`;

describeFault("inbound messages across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;

  beforeAll(async () => {
    database = await faultDatabase("inbound");
    server = new ServerUnderTest(database);
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("stores each of 10k messages exactly once and keeps unread counts exact when the server dies mid-burst and the events are replayed", async () => {
    const db = database.db;
    const started = Date.now();
    const [{ id: whatsappId }] = (await db.query<{ id: number }>("select id from whatsapps where provider = 'simulator'")).rows;
    const storedIds = async () =>
      new Set(
        (await db.query<{ channel_id: string }>("select channel_id from messages where whatsapp_id = $1", [whatsappId])).rows.map(
          (r) => r.channel_id,
        ),
      );
    const storedCount = async () =>
      Number(
        (await db.query<{ n: string }>("select count(*) as n from messages where whatsapp_id = $1", [whatsappId])).rows[0].n,
      );
    const events = burstEvents();
    const byId = new Map(events.map((e) => [e.id, e]));

    // --- the burst, and the kill inside it
    let token = await server.login();
    const url = server.url;
    let killOrdered = false;
    let burstOver = false;
    const acked: string[] = [];
    const inFlightAtKill: string[] = [];
    const unexpected: string[] = [];
    const burst = runBounded(
      events,
      CONCURRENCY,
      async (event) => {
        const d = await deliver(url, token, whatsappId, event);
        if (d.kind === "answered" && d.status === 201 && d.stored) acked.push(event.id);
        else if (d.kind === "failed" && killOrdered) inFlightAtKill.push(event.id);
        else unexpected.push(describeDelivery(event.id, d));
      },
      () => killOrdered,
    ).finally(() => {
      burstOver = true;
    });
    await until(`${KILL_AT} messages stored`, async () => burstOver || (await storedCount()) >= KILL_AT, 240_000, 50);
    const [lease] = (await db.query<{ owner: string }>("select owner from session_leases where whatsapp_id = $1", [whatsappId]))
      .rows;
    killOrdered = true;
    await server.kill();
    const sent = await burst;
    // what the dead process had already sent to PostgreSQL may still commit; count only after that
    await untilOnlyUs(database);
    const atKill = await storedIds();
    const killedAfter = Date.now() - started;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    log(
      `burst: ${sent} of ${TOTAL} sent before the kill, ${acked.length} answered stored, ${inFlightAtKill.length} cut off ` +
        `in flight; ${atKill.size} stored at the kill (after ${seconds(killedAfter)})`,
    );

    expect(unexpected.slice(0, 10), server.logs().slice(-4000)).toEqual([]);
    // the kill landed mid-burst: some but not all stored, requests cut off under way
    expect(atKill.size).toBeGreaterThanOrEqual(KILL_AT);
    expect(atKill.size).toBeLessThan(TOTAL);
    expect(inFlightAtKill.length).toBeGreaterThan(0);
    // a message the server answered as stored survived the crash; nothing was stored that was never sent
    expect(acked.filter((id) => !atKill.has(id))).toEqual([]);
    expect(events.slice(sent).filter((e) => atKill.has(e.id))).toEqual([]);
    expect(atKill.size).toBe(await storedCount());

    // --- a new process on the same database takes the session once the dead one's lease expires
    await server.start();
    await until(
      "the restarted server to hold the simulator session",
      async () =>
        (
          await db.query("select 1 from session_leases where whatsapp_id = $1 and owner <> $2 and expires_at > now()", [
            whatsappId,
            lease?.owner ?? "",
          ])
        ).rows.length === 1,
      40_000,
    );
    token = await server.login();
    const restartedAfter = Date.now() - started;
    log(`restart: the new process holds the session ${seconds(restartedAfter - killedAfter)} after the kill`);

    // --- the replay: every event again, with its channel id, in another order, some twice at once
    const replayStored = new Set<string>();
    const replayUnexpected: string[] = [];
    let replayDeliveries = 0;
    let replayDuplicates = 0;
    const record = (id: string, d: Delivery) => {
      replayDeliveries++;
      if (d.kind === "answered" && (d.status === 201 || d.status === 200)) {
        if (d.stored) replayStored.add(id);
        else replayDuplicates++;
      } else replayUnexpected.push(describeDelivery(id, d));
    };
    await runBounded(shuffled(events, 9), CONCURRENCY, async (event, i) => {
      const times = i % DOUBLED_EVERY === 0 ? 2 : 1;
      const answers = await Promise.all(Array.from({ length: times }, () => deliver(server.url, token, whatsappId, event)));
      for (const d of answers) record(event.id, d);
    });
    const replayedAfter = Date.now() - started;
    log(
      `replay: ${replayDeliveries} deliveries (${TOTAL / DOUBLED_EVERY} events twice at once), ${replayStored.size} stored, ` +
        `${replayDuplicates} answered as already stored (${seconds(replayedAfter - restartedAfter)})`,
    );

    expect(replayUnexpected.slice(0, 10), server.logs().slice(-4000)).toEqual([]);
    expect(replayDeliveries).toBe(TOTAL + TOTAL / DOUBLED_EVERY);
    // the replay stored exactly what the crash had lost, and nothing that was already there
    expect([...replayStored].filter((id) => atKill.has(id))).toEqual([]);
    expect(events.filter((e) => !atKill.has(e.id) && !replayStored.has(e.id)).map((e) => e.id)).toEqual([]);

    // --- the database: every channel id exactly once, on its own contact, counters exact
    const duplicated = await db.query(
      "select channel_id, count(*)::int as n from messages where whatsapp_id = $1 group by channel_id having count(*) > 1 limit 20",
      [whatsappId],
    );
    expect(duplicated.rows).toEqual([]);
    const stored = await db.query<{
      channel_id: string;
      body: string;
      number: string;
      from_me: boolean;
      read: boolean;
      ticket_contact: number;
      contact_id: number;
    }>(
      `select m.channel_id, m.body, c.number, m.from_me, m.read, t.contact_id as ticket_contact, m.contact_id
         from messages m join contacts c on c.id = m.contact_id join tickets t on t.id = m.ticket_id
        where m.whatsapp_id = $1`,
      [whatsappId],
    );
    expect(stored.rows.length).toBe(TOTAL);
    const misplaced = stored.rows.filter((m) => {
      const e = byId.get(m.channel_id);
      return !e || e.body !== m.body || e.number !== m.number || m.from_me || m.read || m.ticket_contact !== m.contact_id;
    });
    expect(misplaced.slice(0, 10)).toEqual([]);

    const contactsPerNumber = await db.query<{ number: string; n: number }>(
      "select number, count(*)::int as n from contacts where number = any($1) group by number",
      [[...new Set(events.map((e) => e.number))]],
    );
    expect(contactsPerNumber.rows.length).toBe(CONTACTS);
    expect(contactsPerNumber.rows.filter((r) => r.n !== 1)).toEqual([]);

    const tickets = await db.query<{ id: number; contact_id: number; status: string; unread_messages: number; unread: number }>(
      `select t.id, t.contact_id, t.status, t.unread_messages,
              count(m.id) filter (where not m.from_me and not m.read)::int as unread
         from tickets t left join messages m on m.ticket_id = t.id
        where t.whatsapp_id = $1 group by t.id`,
      [whatsappId],
    );
    // one live ticket per contact, and nothing closed: every message of a contact is on that one ticket
    expect(tickets.rows.length).toBe(CONTACTS);
    expect(new Set(tickets.rows.map((t) => t.contact_id)).size).toBe(CONTACTS);
    expect(tickets.rows.filter((t) => t.status !== "pending")).toEqual([]);
    expect(tickets.rows.filter((t) => t.unread_messages !== t.unread)).toEqual([]);
    expect(tickets.rows.filter((t) => t.unread !== PER_CONTACT)).toEqual([]);

    // the load generator's own share of the 2 cores, to tell a slow server from a busy harness
    const cpu = process.cpuUsage();
    log(
      `end: ${stored.rows.length} messages, each channel id once; ${tickets.rows.length} tickets, unread counters exact ` +
        `(${seconds(Date.now() - started)} in all, harness CPU ${seconds((cpu.user + cpu.system) / 1000)})`,
    );
  });
});
