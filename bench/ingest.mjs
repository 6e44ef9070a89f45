// Issue 9's ingest and realtime figures, in-process: the built server (server/dist) is imported and started in
// this process on the seeded Whaticket database, and driver events go straight into the channel events handler
// the session manager gives a driver (driver event → stored → broadcast), not through HTTP. Agents' Socket.IO
// clients run in a worker thread of this process (their parsing is a browser's work, not the server's), logged
// in through the API; a message is done when the admin's socket has its appMessage event.
//
// - ingest: 1 / 8 / 32 concurrent senders, each its own stream of contacts (4 of 5 messages to an existing
//   contact of the seed, whose live ticket takes it; 1 of 5 from a number never seen, a new contact and
//   ticket). A sender behaves as a driver: its next event once the handler returned. A message is done when
//   the admin's socket has its appMessage event: msg/s is the messages done over the time to the last one's
//   arrival, the latency runs from the driver event to the socket.
// - realtime: 200 sockets of the agents of one queue (sharing their two users' sessions); one inbound message at
//   a time to a pending ticket of that queue, the time from the driver event to each socket's receipt; then the
//   same under load (8 senders writing to open tickets of other agents, which these sockets do not see).
// - statements: every query the server's node-postgres clients send (BEGIN and COMMIT included), a message; and the
//   CPU a message costs this process (server, senders and sockets together) and the database's backends
//   (/proc/<pid>/stat of the backends pg_stat_activity lists; needs PostgreSQL on this machine).
//
// What it wrote is taken out again afterwards (its messages, new contacts and their tickets; the touched
// tickets' counters and order restored), so the database stays the seed's for the next --reuse.
//
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/ingest.mjs [--quick] [--reuse] [--db charla_bench_x] [--keep]
// `bench/inbox.mjs` runs it as part of issue 9's table (import { runIngest }).
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const root = fileURLToPath(new URL("..", import.meta.url));
const serverRequire = createRequire(join(root, "server/package.json"));
const PASSWORD = "bench-pass-9";
const ADMIN_EMAIL = "admin@admin.com";
const now = () => performance.timeOrigin + performance.now();

const WORDS = `hola buenas tardes quisiera saber sobre mi pedido número compra factura envío entrega paquete producto precio
pago tarjeta cuenta cliente servicio ayuda por favor gracias necesito tengo problema todavía no llegó hoy mañana`.split(/\s+/);
const body = (seq, tag) => {
  const n = 5 + (seq % 11);
  const words = Array.from({ length: n }, (_, j) => WORDS[(seq * 7 + j * 13) % WORDS.length]);
  // the marker lets the socket side tell which message arrived
  return `${words.join(" ")} ·${tag}`;
};
const MARKER = / ·(\S+)$/;

/** The socket side: Socket.IO clients in this worker, each receipt reported with its time. */
async function socketsWorker() {
  const { io } = await import("socket.io-client");
  const { base, event } = workerData;
  const sockets = [];
  let out = [];
  const flush = () => {
    if (out.length) parentPort.postMessage({ type: "got", list: out });
    out = [];
  };
  parentPort.on("message", async (m) => {
    if (m.type === "open") {
      const opened = await Promise.all(
        m.tokens.map(
          (token) =>
            new Promise((resolve, reject) => {
              const s = io(base, { path: "/socket.io", auth: { token }, transports: ["websocket"], reconnection: false });
              s.on("connect", () => resolve(s));
              s.on("connect_error", reject);
            }),
        ),
      );
      for (const s of opened) {
        const index = sockets.push(s) - 1;
        s.on(event, (payload) => {
          const at = now();
          const tag = MARKER.exec(payload?.message?.body ?? "")?.[1];
          if (!tag) return;
          if (out.length === 0) setImmediate(flush);
          out.push([tag, index, at]);
        });
      }
      parentPort.postMessage({ type: "opened", total: sockets.length });
    } else if (m.type === "close") {
      for (const s of sockets) s.disconnect();
      parentPort.postMessage({ type: "closed" });
    }
  });
  parentPort.postMessage({ type: "ready" });
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
}

async function login(base, email) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login ${email} → ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

/**
 * Runs the ingest and realtime figures on the seeded database at `url` (seed-inbox.mjs's workload).
 * @param {{ url: URL | string, seeded: { agents: { id: number, email: string, queueIds: number[] }[], queueIds: number[] },
 *   seconds?: number, senders?: number[], sockets?: number, probes?: number, log?: (s: string) => void,
 *   after?: (senders: number) => Promise<void> }} opts  `after` runs after each ingest figure (the reference there)
 */
export async function runIngest(opts) {
  const log = opts.log ?? ((s) => console.log(s));
  const seconds = opts.seconds ?? 10;
  const sendersList = opts.senders ?? [1, 8, 32];
  const socketCount = opts.sockets ?? 200;
  const probes = opts.probes ?? 100;
  const url = opts.url.toString();
  const pg = serverRequire("pg");

  // every query of the server's pool counted (the bench's own go through `bench`, a client of its own)
  const counted = { n: 0 };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    if (!this.benchOwn) counted.n++;
    return original.apply(this, args);
  };
  const bench = new pg.Client({ connectionString: url });
  bench.benchOwn = true;
  await bench.connect();

  const runTag = randomBytes(3).toString("hex");
  const channelPrefix = `INGEST-${runTag}-`;
  // new contacts' numbers: 548 + 6 digits of this run + sender + sequence, never one of the seed's (549…)
  const runDigits = String(Number.parseInt(runTag, 16) % 1_000_000).padStart(6, "0");
  let newSeq = 0;
  const newNumber = () => `548${runDigits}${String(newSeq++).padStart(8, "0")}`;

  const { buildApp } = await import(pathToFileURL(join(root, "server/dist/app.js")).href);
  const { loadConfig } = await import(pathToFileURL(join(root, "server/dist/config.js")).href);
  const dataDir = mkdtempSync(join(tmpdir(), "charla-bench-ingest-"));
  const config = loadConfig(
    {
      ...process.env,
      DATABASE_URL: url,
      REDIS_URL: "",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: "error",
      WEB_DIST: "",
    },
    { apiMaxPerIp: 1e9, apiMaxPerUser: 1e9, loginMaxPerIp: 1e9, loginMaxPerEmail: 1e9 },
  );
  const app = await buildApp(config);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server.address().port}`;

  const {
    rows: [conn],
  } = await bench.query("select id, company_id from whatsapps where company_id = 1 order by id limit 1");
  const companyId = conn.company_id;
  const whatsappId = conn.id;
  // the handler a driver of this connection is given (sessions.ts wires driver events to the inbound pipeline)
  const events = app.charla.sessions.eventsFor(companyId, whatsappId);

  // realtime: the agents of one queue, and pending tickets of that queue (which they, and staff, see); the load
  // of that figure goes to open tickets of the other agents, which these agents do not see
  const queue = opts.seeded.queueIds[opts.seeded.queueIds.length - 1];
  const watchers = opts.seeded.agents.filter((a) => a.queueIds.includes(queue));
  const watcherIds = watchers.map((a) => a.id);
  const contactsOf = async (where, params) =>
    (
      await bench.query(
        `select c.number, t.id as ticket_id from tickets t join contacts c on c.id = t.contact_id
         where t.company_id = ${companyId} and t.whatsapp_id = ${whatsappId} and t.status in ('open', 'pending') and ${where}
         order by t.id`,
        params,
      )
    ).rows;
  const probeContacts = await contactsOf("t.status = 'pending' and t.queue_id = $1", [queue]);
  const loadContacts = await contactsOf("t.status = 'open' and t.user_id <> all($1::int[])", [watcherIds]);
  const probeSet = new Set(probeContacts.map((c) => c.number));
  const otherContacts = (await contactsOf("true", [])).filter((c) => !probeSet.has(c.number));
  // what the run will touch, to put back afterwards
  const touched = [...probeContacts, ...otherContacts].map((c) => c.ticket_id);
  await bench.query(
    `create temp table ingest_restore as select id, last_message, unread_messages, updated_at from tickets where id = any($1::int[])`,
    [touched],
  );

  const worker = new Worker(fileURLToPath(import.meta.url), {
    workerData: { role: "sockets", base, event: `company-${companyId}-appMessage` },
  });
  const waiting = new Map(); // tag → { t0, need, got: number[], done }
  const fromWorker = (type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type !== type) return;
        worker.off("message", on);
        resolve(m);
      };
      worker.on("message", on);
    });
  worker.on("message", (m) => {
    if (m.type !== "got") return;
    for (const [tag, index, at] of m.list) {
      const w = waiting.get(tag);
      if (!w?.sockets.has(index)) continue;
      w.got.push(at - w.t0);
      if (w.got.length === w.sockets.size) {
        waiting.delete(tag);
        w.done();
      }
    }
  });
  worker.on("error", (err) => log(`  socket worker failed: ${err.message}`));
  await fromWorker("ready");

  let seq = 0;
  const lost = { n: 0 };
  /**
   * One driver event: `handled` when the events handler returned (what a driver waits for before its next
   * event), `arrived` with the times to each socket in `sockets` once all have it (after 10 s: lost).
   */
  const deliver = (msg, sockets) => {
    const tag = `${runTag}${(seq++).toString(36)}`;
    const message = { ...msg, channelId: `${channelPrefix}${tag}`, body: body(seq, tag), fromMe: false, mediaType: "chat" };
    let timer;
    const w = { t0: now(), sockets, got: [], last: 0, done: () => undefined };
    const arrived = new Promise((resolve) => {
      w.done = () => {
        clearTimeout(timer);
        w.last = now();
        resolve(w);
      };
      timer = setTimeout(() => {
        waiting.delete(tag);
        lost.n++;
        resolve(w);
      }, 10_000);
    });
    waiting.set(tag, w);
    return { handled: events.message(message), arrived };
  };

  const results = { ingest: {}, realtime: {} };
  try {
    const adminToken = await login(base, ADMIN_EMAIL);
    const adminOpened = fromWorker("opened");
    worker.postMessage({ type: "open", tokens: [adminToken] });
    await adminOpened;
    const adminSocket = new Set([0]);

    /** CPU seconds so far of this process (server, senders and sockets) and of the database's backends. */
    const cpuNow = async () => {
      const { rows } = await bench.query("select pid from pg_stat_activity where datname = current_database()");
      let pgTicks = 0;
      for (const { pid } of rows) {
        try {
          const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
          pgTicks += Number(f[11]) + Number(f[12]);
        } catch {
          // a backend that ended meanwhile (or a server on another machine): not counted
        }
      }
      const u = process.cpuUsage();
      return { node: (u.user + u.system) / 1e6, pg: pgTicks / 100 };
    };

    /**
     * `n` senders for `secs` over `pool` contacts (and new ones), each as a driver: its next event once the
     * handler returned. A message is done when the admin's socket has it; the rate is the messages done over
     * the time to the last one's arrival, the latency from the driver event to the socket.
     */
    const drive = async (n, secs, pool, withNew, stop) => {
      const end = performance.now() + secs * 1000;
      const q0 = counted.n;
      const cpu0 = await cpuNow();
      const t0 = now();
      const arrivals = [];
      await Promise.all(
        Array.from({ length: n }, async (_, k) => {
          const mine = pool.filter((_, i) => i % n === k);
          for (let i = 0; performance.now() < end && !stop?.done; i++) {
            const number = withNew && i % 5 === 4 ? newNumber() : mine[i % mine.length].number;
            const { handled, arrived } = deliver({ number, name: `Cliente ${k}-${i}` }, adminSocket);
            arrivals.push(arrived);
            await handled;
          }
        }),
      );
      const done = (await Promise.all(arrivals)).filter((w) => w.got.length);
      const cpu1 = await cpuNow();
      const times = done.map((w) => w.got[0]).sort((a, b) => a - b);
      const last = Math.max(...done.map((w) => w.last));
      return {
        rate: done.length / ((last - t0) / 1000),
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        n: done.length,
        sent: arrivals.length,
        statements: (counted.n - q0) / Math.max(1, arrivals.length),
        nodeMs: (1000 * (cpu1.node - cpu0.node)) / Math.max(1, arrivals.length),
        pgMs: (1000 * (cpu1.pg - cpu0.pg)) / Math.max(1, arrivals.length),
      };
    };

    // warm-up: plans cached, JIT warm, pool connections open
    await drive(8, Math.min(2, seconds / 4), otherContacts, true);
    for (const n of sendersList) {
      const r = await drive(n, seconds, otherContacts, true);
      results.ingest[n] = r;
      log(
        `  ingest ${String(n).padStart(2)} senders${" ".repeat(22)} ${Math.round(r.rate).toLocaleString("en-US").padStart(7)} msg/s  p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms  n ${r.n}  ${r.statements.toFixed(2)} statements, CPU node ${r.nodeMs.toFixed(2)} ms + PostgreSQL ${r.pgMs.toFixed(2)} ms a message`,
      );
      await opts.after?.(n);
    }

    // realtime: the watchers' sockets, shared between their users' sessions
    const tokens = [];
    for (const a of watchers) tokens.push(await login(base, a.email));
    const watchersOpened = fromWorker("opened");
    worker.postMessage({ type: "open", tokens: Array.from({ length: socketCount }, (_, i) => tokens[i % tokens.length]) });
    const opened = await watchersOpened;
    const watching = new Set(Array.from({ length: opened.total - 1 }, (_, i) => i + 1));
    const probe = async (count, label, loadInfo) => {
      const all = [];
      let incomplete = 0;
      for (let i = 0; i < count; i++) {
        const { handled, arrived } = deliver(
          { number: probeContacts[i % probeContacts.length].number, name: "Cliente" },
          watching,
        );
        await handled;
        const { got } = await arrived;
        if (got.length < watching.size) incomplete++;
        all.push(...got);
        // one at a time: the next once this one reached every socket
      }
      all.sort((a, b) => a - b);
      const r = { p50: percentile(all, 50), p99: percentile(all, 99), max: all[all.length - 1], n: all.length, incomplete };
      log(
        `  realtime to ${watching.size} sockets, ${label.padEnd(16)} p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms  max ${fmt(r.max).padStart(6)} ms  ${count} messages${incomplete ? `  INCOMPLETE ${incomplete}` : ""}${loadInfo ? `  (${loadInfo()})` : ""}`,
      );
      return r;
    };
    await probe(Math.min(20, probes), "warm-up");
    results.realtime.idle = await probe(probes, "one at a time");
    const stop = { done: false };
    const load = drive(8, 3600, loadContacts, false, stop);
    await new Promise((r) => setTimeout(r, 500));
    let loadRate = null;
    results.realtime.loaded = await probe(probes, "under load");
    stop.done = true;
    loadRate = await load;
    results.realtime.loadRate = loadRate.rate;
    log(`    (the load: 8 senders, ${Math.round(loadRate.rate).toLocaleString("en-US")} msg/s to other agents' tickets)`);
    results.lost = lost.n;
    if (lost.n) log(`  LOST: ${lost.n} messages never reached a socket in 10 s`);
  } finally {
    const closed = fromWorker("closed");
    worker.postMessage({ type: "close" });
    await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
    await worker.terminate();
    await app.close();
    pg.Client.prototype.query = original;
    await cleanUp(bench, { channelPrefix, newPrefix: `548${runDigits}`, companyId, log });
    await bench.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

/** Takes out what the run wrote: its messages, its new contacts (their tickets go with them), its jobs, the counters it moved. */
async function cleanUp(db, { channelPrefix, newPrefix, companyId, log }) {
  const t0 = performance.now();
  await db.query("begin");
  const m = await db.query(`delete from messages where company_id = $1 and channel_id like $2`, [companyId, `${channelPrefix}%`]);
  const c = await db.query(`delete from contacts where company_id = $1 and number like $2`, [companyId, `${newPrefix}%`]);
  await db.query(
    `update tickets t set last_message = r.last_message, unread_messages = r.unread_messages, updated_at = r.updated_at
     from ingest_restore r where t.id = r.id and (t.last_message, t.unread_messages, t.updated_at) is distinct from (r.last_message, r.unread_messages, r.updated_at)`,
  );
  // the seed has no jobs: the bot's delivery jobs of this run go too (a tree before the jobs table has none)
  const companyNumber = Number(companyId);
  await db.query(
    `do $$ begin if to_regclass('public.jobs') is not null then delete from jobs where company_id = ${companyNumber}; end if; end $$`,
  );
  await db.query("commit");
  // what autovacuum would do after so many deletes, now: the next run (--reuse) meets the seed's state,
  // not dead rows and index entries of this one
  await db.query("vacuum analyze messages, contacts, tickets, ticket_tracking");
  log(`  cleaned up ${m.rowCount} messages, ${c.rowCount} new contacts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const fmt = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)) : "—");

/** The table's rows for these figures, beside pgbench TPC-B at the same client counts. */
export function ingestRows(r, pgbench) {
  const rate = (n) => Math.round(r.ingest[n]?.rate ?? Number.NaN).toLocaleString("en-US");
  const tps = (n) => (pgbench ? Math.round(pgbench[n]).toLocaleString("en-US") : "—");
  const share = (n) => (pgbench && r.ingest[n] ? r.ingest[n].rate / pgbench[n] : Number.NaN);
  const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)} %` : "—");
  const rows = [
    [
      "inbound ingest, 1 / 8 / 32 senders",
      `${rate(1)} / ${rate(8)} / ${rate(32)} msg/s (${[1, 8, 32].map((n) => (r.ingest[n]?.statements ?? Number.NaN).toFixed(2)).join(" / ")} statements a message)`,
      pgbench ? `pgbench TPC-B ${tps(1)} / ${tps(8)} / ${tps(32)} TPS` : "pgbench not found",
      `${pct(share(1))} / ${pct(share(8))} / ${pct(share(32))}`,
      "≥ 50 % of pgbench at 8, 32",
      pgbench ? share(8) >= 0.5 && share(32) >= 0.5 : null,
    ],
  ];
  for (const [key, label] of [
    ["idle", "one at a time"],
    ["loaded", "under 8 senders' load"],
  ]) {
    const x = r.realtime[key];
    if (!x) continue;
    rows.push([
      `realtime: a message to 200 agent sockets, ${label}`,
      `p50 ${fmt(x.p50)} ms, p99 ${fmt(x.p99)} ms`,
      "—",
      "—",
      "p99 ≤ 100 ms",
      x.p99 <= 100 && !x.incomplete,
    ]);
  }
  return rows;
}

async function cli() {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const dbIdx = args.indexOf("--db");
  const { adminUrlFromEnv, describeSeeded, seedInbox } = await import("./seed-inbox.mjs");
  const { pgbenchReference } = await import("./inbox.mjs");
  const adminUrl = adminUrlFromEnv();
  const dbName = dbIdx >= 0 ? args[dbIdx + 1] : quick ? "charla_bench_inbox_quick" : "charla_bench_inbox";
  const seeded = args.includes("--reuse") ? await describeSeeded(adminUrl, dbName) : await seedInbox({ adminUrl, dbName, quick });
  const started = performance.now();
  console.log(`ingest on ${dbName}: ${JSON.stringify(seeded.counts)}`);
  const seconds = quick ? 3 : 10;
  const reference = await pgbenchReference(adminUrl, seconds, args.includes("--keep"), (s) => console.log(s));
  const pgbench = reference ? {} : null;
  let r;
  try {
    r = await runIngest({
      url: seeded.url,
      seeded,
      seconds,
      probes: quick ? 30 : 100,
      // pgbench at the same client count right after each figure: the two share the machine's moment
      after: reference
        ? async (n) => {
            pgbench[n] = await reference.run(n);
          }
        : undefined,
    });
  } finally {
    await reference?.close();
  }
  console.log("");
  console.log("| figure | value | reference (same run) | ratio | goal | met |");
  console.log("|---|---|---|---|---|---|");
  for (const row of ingestRows(r, pgbench))
    console.log(`| ${row.slice(0, 5).join(" | ")} | ${row[5] === null ? "—" : row[5] ? "yes" : "no"} |`);
  console.log("");
  console.log(`${cpus().length} cores; node ${process.version}; total ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (r.lost) process.exitCode = 1;
}

if (!isMainThread && workerData?.role === "sockets") await socketsWorker();
// not awaited: cli() imports inbox.mjs, which imports this module, whose evaluation must be finished by then
else if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url))
  cli().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
