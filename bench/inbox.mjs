// Issue 9's table: the inbox figures on the Whaticket workload, each beside its reference measured in the same
// run (a bare Fastify + node-postgres route doing one indexed 40-row SELECT on the same database, and pgbench
// TPC-B at the same client counts). Seeds with bench/seed-inbox.mjs (or reuses its database), starts the built
// server on it and loads it from this process over keep-alive HTTP to 127.0.0.1 only, bounded by time and count.
//
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:inbox -- [--quick] [--reuse] [--keep] [--db charla_bench_x]
//   --quick  2k contacts / 10k tickets / 100k messages, 3 s a figure (development and CI smoke)
//   --reuse  use the database a previous run seeded (charla_bench_inbox or charla_bench_inbox_quick)
//   --keep   leave the pgbench scratch database in place
//   --db     seed (or with --reuse take) this database instead (a name charla_bench_*)
//   --only   some parts only, a comma list of: lists (issue 9's HTTP figures), tools (issue 12's global search
//            and dashboard), ingest (ingest and realtime); the bare-route references always run
// The role of DATABASE_URL (or TEST_DATABASE_URL) must be allowed to create databases.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { ingestRows, runIngest } from "./ingest.mjs";
import { ADMIN_EMAIL, PASSWORD, adminUrlFromEnv, dbUrl, describeSeeded, seedInbox, startServer } from "./seed-inbox.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const execFileAsync = promisify(execFile);
const serverRequire = createRequire(join(root, "server/package.json"));

/** The reference: the smallest honest API over the same data, one indexed 40-row SELECT a request. */
const BARE_SQL = `select id, uuid, status, contact_id, whatsapp_id, queue_id, user_id, last_message, unread_messages,
  is_group, created_at, updated_at from tickets where company_id = $1 and status = $2
  order by updated_at desc, id desc limit 40`;

function parseArgs() {
  const args = process.argv.slice(2);
  const db = args.indexOf("--db");
  const only = args.indexOf("--only");
  return {
    quick: args.includes("--quick"),
    reuse: args.includes("--reuse"),
    keep: args.includes("--keep"),
    db: db >= 0 ? args[db + 1] : null,
    parts: new Set(only >= 0 ? args[only + 1].split(",") : ["lists", "tools", "ingest"]),
  };
}

/**
 * Keeps `connections` requests in flight against one path for `seconds` (and at most `maxRequests`) over
 * keep-alive sockets. Returns throughput and latency percentiles; any non-2xx answer counts as an error.
 */
async function load({ base, path, token, connections, seconds, maxRequests = 1_000_000, warmup = 0.5 }) {
  const url = new URL(path, base);
  if (url.hostname !== "127.0.0.1") throw new Error("load goes to 127.0.0.1 only");
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const once = () =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { agent, headers }, (res) => {
        let bytes = 0;
        res.on("data", (c) => {
          bytes += c.length;
        });
        res.on("end", () => resolve({ status: res.statusCode, bytes }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  // warm up: connections open, plans cached, JIT warm
  const warmEnd = performance.now() + warmup * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < warmEnd) await once();
    }),
  );
  const times = [];
  let errors = 0;
  let bytes = 0;
  let sent = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end && sent < maxRequests) {
        sent++;
        const t0 = performance.now();
        try {
          const r = await once();
          if (r.status < 200 || r.status >= 300) errors++;
          bytes += r.bytes;
        } catch {
          errors++;
        }
        times.push(performance.now() - t0);
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] : Number.NaN);
  return {
    rps: times.length / secs,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    n: times.length,
    errors,
    avgBytes: times.length ? bytes / times.length : 0,
  };
}

function procStatus(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, "m"))?.[1] ?? Number.NaN);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return { rss: Number.NaN, hwm: Number.NaN };
  }
}

function findPgbench() {
  const onPath = spawnSync("sh", ["-c", "command -v pgbench"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  for (const v of ["17", "16", "15", "14", "13"]) {
    const p = `/usr/lib/postgresql/${v}/bin/pgbench`;
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * pgbench TPC-B on a scratch database of its own (`pgbench -i -s 10`), ready to run at any client count:
 * `run(clients)` answers its TPS. Null when pgbench is not installed. `close()` drops the database (unless keep).
 * Runs without blocking this process, so an in-process server beside it keeps its timers.
 */
export async function pgbenchReference(adminUrl, seconds, keep, log) {
  const bin = findPgbench();
  if (!bin) return null;
  const pg = serverRequire("pg");
  const name = "charla_bench_pgbench";
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const u = dbUrl(adminUrl, name);
  const conn = ["-h", u.hostname, "-p", u.port || "5432", "-U", decodeURIComponent(u.username || "postgres")];
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password || "") };
  const close = async () => {
    if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  try {
    const t0 = performance.now();
    await execFileAsync(bin, ["-i", "-s", "10", "-q", ...conn, name], { env });
    log(`  pgbench -i -s 10: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    async run(c) {
      const { stdout } = await execFileAsync(
        bin,
        ["-c", String(c), "-j", String(Math.min(c, Math.max(2, cpus().length))), "-T", String(seconds), ...conn, name],
        { env, encoding: "utf8" },
      );
      const m = stdout.match(/tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)/);
      const tps = m ? Number(m[1]) : Number.NaN;
      log(`  pgbench TPC-B ${String(c).padStart(2)} clients: ${tps.toFixed(0)} TPS`);
      return tps;
    },
    close,
  };
}

async function login(base, email, password) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email} → ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

async function getJson(base, path, token) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

const ms = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)) : "—");
const rps = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "—");
const pctOf = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${((100 * a) / b).toFixed(0)} %` : "—");

async function main() {
  const { quick, reuse, keep, db, parts } = parseArgs();
  const secs = quick ? 3 : 20;
  const oneSecs = quick ? 2 : 5;
  const pgbenchSecs = quick ? 3 : 10;
  const log = (s) => console.log(s);
  const adminUrl = adminUrlFromEnv();
  const dbName = db ?? (quick ? "charla_bench_inbox_quick" : "charla_bench_inbox");
  const startedAll = performance.now();

  log(`${reuse ? "reusing" : "seeding"} ${dbName}${quick ? " (--quick)" : ""}`);
  const seeded = reuse ? await describeSeeded(adminUrl, dbName) : await seedInbox({ adminUrl, dbName, quick, log });
  log(`  ${JSON.stringify(seeded.counts)}${reuse ? "" : ` in ${seeded.seconds.toFixed(1)} s`}`);

  const results = {};
  const server = await startServer(seeded.url);
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { role: "bare", url: seeded.url.toString() } });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, procStatus(server.child.pid).rss || 0);
  }, 100);
  try {
    const barePort = await new Promise((resolve, reject) => {
      worker.once("message", (m) => resolve(m.port));
      worker.once("error", reject);
    });
    const bare = `http://127.0.0.1:${barePort}`;
    const base = server.base;
    const adminToken = await login(base, ADMIN_EMAIL, PASSWORD);
    const agent = seeded.agents[0];
    const agentToken = await login(base, agent.email, PASSWORD);
    const q = encodeURIComponent(JSON.stringify(seeded.queueIds));
    const paths = {
      open: `/api/v1/tickets?status=open&showAll=true&queueIds=${q}`,
      pending: `/api/v1/tickets?status=pending&showAll=true&queueIds=${q}`,
      search: `/api/v1/tickets?searchParam=reembolso&showAll=true&queueIds=${q}`,
      agentPending: `/api/v1/tickets?status=pending&queueIds=${encodeURIComponent(JSON.stringify(agent.queueIds))}`,
      // the search tab's own call (web/src/api/search.ts): every kind, simple mode, the first 20
      globalSearch: "/api/v1/search?q=reembolso&type=all&mode=simple&page=1&limit=20",
      dashboard: "/api/v1/dashboard?days=30",
    };
    // a sanity pass: each call answers, and the lists hold what the seed put there
    const open = await getJson(base, paths.open, adminToken);
    const pending = await getJson(base, paths.pending, adminToken);
    const search = await getJson(base, paths.search, adminToken);
    await getJson(base, paths.agentPending, agentToken);
    const found = await getJson(base, paths.globalSearch, adminToken);
    const board = await getJson(base, paths.dashboard, adminToken);
    log(
      `  global search "reembolso": ${found.results.length} results of ${found.totalCount}; dashboard 30 days: ${board.supportFinished} finished, ${board.attendants.length} attendants`,
    );
    const ticketId = open.tickets[0].id;
    const msgs = await getJson(base, `/api/v1/messages/${ticketId}`, adminToken);
    log(
      `  open ${open.count}, pending ${pending.count}, search "reembolso" ${search.count} tickets, messages page of ticket ${ticketId}: ${msgs.messages.length} of ${msgs.count}`,
    );
    // idle: after the login and the first calls, before the load
    await new Promise((r) => setTimeout(r, 1000));
    results.rssIdle = procStatus(server.child.pid).rss;
    log(`  server RSS idle ${results.rssIdle.toFixed(0)} MB`);

    const run = async (key, label, opts) => {
      const r = await load({ seconds: secs, ...opts });
      results[key] = r;
      log(
        `  ${label.padEnd(40)} ${rps(r.rps).padStart(7)} req/s  p50 ${ms(r.p50).padStart(6)} ms  p95 ${ms(r.p95).padStart(6)} ms  p99 ${ms(r.p99).padStart(6)} ms  n ${r.n}${r.errors ? `  ERRORS ${r.errors}` : ""}`,
      );
      return r;
    };
    log(`load: ${secs} s a figure at 50 connections, ${oneSecs} s at 1`);
    await run("bareOpen50", "bare route (open), 50 conn", { base: bare, path: "/bare/tickets?status=open", connections: 50 });
    await run("barePending50", "bare route (pending), 50 conn", {
      base: bare,
      path: "/bare/tickets?status=pending",
      connections: 50,
    });
    await run("bareOpen1", "bare route (open), 1 conn", {
      base: bare,
      path: "/bare/tickets?status=open",
      connections: 1,
      seconds: oneSecs,
    });
    if (parts.has("lists")) {
      await run("open50", "open list, 50 conn", { base, path: paths.open, token: adminToken, connections: 50 });
      await run("open1", "open list, 1 conn", { base, path: paths.open, token: adminToken, connections: 1, seconds: oneSecs });
      await run("pending50", "pending list, 50 conn", { base, path: paths.pending, token: adminToken, connections: 50 });
      await run("agentPending50", "agent's pending list, 50 conn", {
        base,
        path: paths.agentPending,
        token: agentToken,
        connections: 50,
      });
      await run("msgs50", "messages page, 50 conn", {
        base,
        path: `/api/v1/messages/${ticketId}`,
        token: adminToken,
        connections: 50,
      });
      await run("msgs1", "messages page, 1 conn", {
        base,
        path: `/api/v1/messages/${ticketId}`,
        token: adminToken,
        connections: 1,
        seconds: oneSecs,
      });
      await run("search10", 'search "reembolso", 10 conn', { base, path: paths.search, token: adminToken, connections: 10 });
    }
    if (parts.has("tools")) {
      await run("bareOpen10", "bare route (open), 10 conn", { base: bare, path: "/bare/tickets?status=open", connections: 10 });
      await run("gsearch10", 'global search "reembolso", 10 conn', {
        base,
        path: paths.globalSearch,
        token: adminToken,
        connections: 10,
      });
      await run("gsearch50", 'global search "reembolso", 50 conn', {
        base,
        path: paths.globalSearch,
        token: adminToken,
        connections: 50,
      });
      await run("agentGsearch10", 'agent\'s global search "reembolso", 10 conn', {
        base,
        path: paths.globalSearch,
        token: agentToken,
        connections: 10,
      });
      await run("dashboard10", "dashboard, 30 days, 10 conn", {
        base,
        path: paths.dashboard,
        token: adminToken,
        connections: 10,
      });
    }
    results.rssPeak = Math.max(peakRss, procStatus(server.child.pid).hwm || 0);
    results.rssHwm = procStatus(server.child.pid).hwm;
  } finally {
    clearInterval(sampler);
    worker.postMessage("close");
    await Promise.race([new Promise((r) => worker.once("message", r)), new Promise((r) => setTimeout(r, 5000))]);
    await worker.terminate();
    await server.stop();
  }

  // ingest and realtime: the built server in this process, driver events in, agents' sockets out (bench/ingest.mjs);
  // pgbench at the same client count right after each ingest figure, so the two share the machine's moment
  if (parts.has("ingest")) {
    log(`ingest: ${pgbenchSecs} s at 1 / 8 / 32 senders, each followed by pgbench TPC-B; realtime to 200 sockets`);
    const pgbench = await pgbenchReference(adminUrl, pgbenchSecs, keep, log);
    results.pgbench = pgbench ? {} : null;
    try {
      results.ingest = await runIngest({
        url: seeded.url,
        seeded,
        seconds: pgbenchSecs,
        probes: quick ? 30 : 100,
        log,
        after: pgbench
          ? async (n) => {
              results.pgbench[n] = await pgbench.run(n);
            }
          : undefined,
      });
    } finally {
      await pgbench?.close();
    }
  }

  // a figure under load beside the bare route's, and one client's median beside the bare route's
  const throughputRow = (name, run, bare, share) => [
    name,
    `${rps(run.rps)} req/s, p50 ${ms(run.p50)} ms`,
    `bare ${rps(bare.rps)} req/s`,
    pctOf(run.rps, bare.rps),
    `≥ ${share * 100} % of bare`,
    run.rps >= share * bare.rps,
  ];
  const latencyRow = (name, run, bare, goalMs) => [
    name,
    `p50 ${ms(run.p50)} ms`,
    `bare p50 ${ms(bare.p50)} ms`,
    Number.isFinite(bare.p50) ? `${(run.p50 / bare.p50).toFixed(1)} ×` : "—",
    `p50 ≤ ${goalMs} ms`,
    run.p50 <= goalMs,
  ];
  const R = results;
  const pb = R.pgbench;
  const p95Row = (name, run, bare, goalMs) => [
    name,
    `${rps(run.rps)} req/s, p95 ${ms(run.p95)} ms`,
    `bare p95 ${ms(bare.p95)} ms`,
    Number.isFinite(bare.p95) ? `${(run.p95 / bare.p95).toFixed(1)} ×` : "—",
    `p95 ≤ ${goalMs} ms`,
    run.p95 <= goalMs,
  ];
  const rows = [];
  if (R.open50)
    rows.push(
      throughputRow("open ticket list, queueIds 1–5, showAll (50 conn)", R.open50, R.bareOpen50, 0.4),
      latencyRow("open ticket list, 1 client", R.open1, R.bareOpen1, 5),
      throughputRow("pending ticket list (50 conn)", R.pending50, R.barePending50, 0.4),
      throughputRow("messages page of a ticket (50 conn)", R.msgs50, R.bareOpen50, 0.3),
      latencyRow("messages page, 1 client", R.msgs1, R.bareOpen1, 3),
      [
        'list search "reembolso" (10 conn)',
        `${rps(R.search10.rps)} req/s, p95 ${ms(R.search10.p95)} ms`,
        "—",
        "—",
        "p95 ≤ 50 ms (every message)",
        R.search10.p95 <= 50,
      ],
    );
  if (R.gsearch10)
    rows.push(
      p95Row('global search "reembolso" (10 conn)', R.gsearch10, R.bareOpen10, 50),
      [
        'global search "reembolso" (50 conn)',
        `${rps(R.gsearch50.rps)} req/s, p50 ${ms(R.gsearch50.p50)} ms`,
        `bare ${rps(R.bareOpen50.rps)} req/s; Whaticket 0.05 req/s (issue 12)`,
        `${pctOf(R.gsearch50.rps, R.bareOpen50.rps)} of bare; ${Math.round(R.gsearch50.rps / 0.05).toLocaleString("en-US")} × Whaticket`,
        "≥ 1,000 × Whaticket (50 req/s)",
        R.gsearch50.rps >= 50,
      ],
      p95Row('agent\'s global search "reembolso" (10 conn)', R.agentGsearch10, R.bareOpen10, 50),
      p95Row("dashboard, 30 days (10 conn)", R.dashboard10, R.bareOpen10, 100),
    );
  if (R.ingest) rows.push(...ingestRows(R.ingest, pb));
  rows.push([
    "server RSS idle / peak",
    `${R.rssIdle.toFixed(0)} / ${R.rssPeak.toFixed(0)} MB`,
    "—",
    "—",
    "≤ 150 / ≤ 300 MB",
    R.rssIdle <= 150 && R.rssPeak <= 300,
  ]);
  const errors = [
    "bareOpen50",
    "barePending50",
    "bareOpen1",
    "open50",
    "open1",
    "pending50",
    "agentPending50",
    "msgs50",
    "msgs1",
    "search10",
    "bareOpen10",
    "gsearch10",
    "gsearch50",
    "agentGsearch10",
    "dashboard10",
  ]
    .filter((k) => R[k]?.errors)
    .map((k) => `${k}: ${R[k].errors}`);
  console.log("");
  console.log(`| figure | value | reference (same run) | ratio | goal | met |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.slice(0, 5).join(" | ")} | ${r[5] === null ? "—" : r[5] ? "yes" : "no"} |`);
  console.log("");
  console.log(
    `${seeded.counts.contacts} contacts, ${seeded.counts.pending + seeded.counts.open + seeded.counts.closed} tickets, ${seeded.counts.messages} messages (${seeded.counts.reembolso} with "reembolso"); ` +
      `${quick ? "--quick, " : ""}${secs} s a figure; ${cpus().length} cores; node ${process.version}; total ${((performance.now() - startedAll) / 1000).toFixed(0)} s`,
  );
  if (errors.length) {
    console.log(`non-2xx answers: ${errors.join(", ")}`);
    process.exitCode = 1;
  }
  if (R.ingest?.lost) {
    console.log(`ingest: ${R.ingest.lost} messages never reached the agent's socket`);
    process.exitCode = 1;
  }
}

/** The bare route runs in a worker thread: in-process, but not on the load generator's event loop. */
async function bareWorker() {
  const Fastify = serverRequire("fastify");
  const pg = serverRequire("pg");
  const pool = new pg.Pool({ connectionString: workerData.url, max: 10 });
  const app = Fastify({ logger: false });
  app.get("/bare/tickets", async (req) => {
    const { rows } = await pool.query(BARE_SQL, [1, req.query.status ?? "open"]);
    return { tickets: rows, count: rows.length };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  parentPort.postMessage({ port: app.server.address().port });
  parentPort.once("message", async () => {
    await app.close();
    await pool.end();
    parentPort.postMessage("closed");
  });
}

// bench/ingest.mjs imports pgbenchReference from here: the table runs only when this file is the one started
if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) await main();
else if (!isMainThread && workerData?.role === "bare") await bareWorker();
