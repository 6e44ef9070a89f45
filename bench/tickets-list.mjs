// The tickets list at scale (issue 3: "the first page stays fast at 100k tickets"). Creates a throwaway
// PostgreSQL database, starts the built server on it, bulk-loads N tickets (with contacts, queues and
// messages) for the seeded company, then times the list calls the tickets screen makes.
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/tickets-list.mjs [tickets=100000] [requests=300]
// DATABASE_URL names a server where the bench may CREATE and DROP its own database.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pg = createRequire(join(root, "server/package.json"))("pg");
const ticketsTotal = Number(process.argv[2] ?? 100_000);
const requests = Number(process.argv[3] ?? 300);
const concurrency = 10;
if (!process.env.DATABASE_URL) {
  console.error("Set DATABASE_URL to a PostgreSQL server (the bench creates and drops its own database).");
  process.exit(1);
}
const adminUrl = new URL(process.env.DATABASE_URL);
const dbName = `charla_bench_${process.pid}`;
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${dbName}`;

const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
await admin.query(`create database ${dbName}`);

const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(root, "server/dist/main.js")], {
  env: {
    ...process.env,
    DATABASE_URL: benchUrl.toString(),
    REDIS_URL: "",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: mkdtempSync(join(tmpdir(), "charla-bench-")),
    ADMIN_PASSWORD: "bench-pass",
    LOG_LEVEL: "error",
    WEB_DIST: "",
    // one token stands in for a whole office of agents here: the per-user/per-address limits would
    // measure the limiter, not the server
    API_MAX_PER_IP: "1000000000",
    API_MAX_PER_USER: "1000000000",
  },
  stdio: "inherit",
});

async function waitUp() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

async function call(method, path, token, body) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

async function loginAs(email, password) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return (await res.json()).token;
}

/** Bulk load in SQL: contacts, tickets spread over statuses, queues and users, two messages each. */
async function load(db) {
  await db.query(
    `insert into queues (company_id, name, color) values (1,'Ventas','#0a0'),(1,'Soporte','#00a'),(1,'Cobranza','#a00')`,
  );
  const started = performance.now();
  await db.query(
    `insert into contacts (company_id, name, number)
     select 1, 'Cliente ' || g, '549' || lpad(g::text, 10, '0') from generate_series(1, $1) g`,
    [ticketsTotal],
  );
  await db.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, last_message, unread_messages, updated_at, created_at)
     select 1, c.id, 1,
            (select id from queues where company_id = 1 order by id offset (c.id % 3) limit 1),
            case when c.id % 10 < 3 then 1 end,
            case when c.id % 10 < 3 then 'open' when c.id % 10 < 5 then 'pending' else 'closed' end,
            'mensaje ' || c.id, c.id % 4,
            now() - (c.id || ' seconds')::interval, now() - (c.id || ' seconds')::interval
     from contacts c where c.company_id = 1`,
  );
  await db.query(
    `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, channel_id, body, from_me, created_at)
     select 1, t.id, t.contact_id, 1, 'bench-' || t.id || '-' || k, 'texto ' || k, k = 2, t.updated_at
     from tickets t, generate_series(1, 2) k where t.company_id = 1`,
  );
  await db.query("analyze");
  return ((performance.now() - started) / 1000).toFixed(1);
}

async function time(label, path, token) {
  const times = [];
  let next = 0;
  let size = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        const body = await call("GET", path, token);
        times.push(performance.now() - t0);
        size = body.count ?? body.tickets?.length ?? 0;
      }
    }),
  );
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(
    `${label.padEnd(44)} matches ${String(size).padStart(6)}  p50 ${pct(50).padStart(6)} ms  p95 ${pct(95).padStart(6)} ms`,
  );
}

try {
  await waitUp();
  const db = new pg.Client({ connectionString: benchUrl.toString() });
  await db.connect();
  const secs = await load(db);
  const adminToken = await loginAs("admin@admin.com", "bench-pass");
  const queues = await call("GET", "/queue", adminToken);
  await call("POST", "/users", adminToken, {
    name: "Agente Bench",
    email: "agente@bench.test",
    password: "bench-pass",
    profile: "user",
    queueIds: [queues[0].id],
  });
  const agentToken = await loginAs("agente@bench.test", "bench-pass");
  await db.end();
  console.log(
    `${ticketsTotal} tickets loaded in ${secs} s; ${requests} requests per line, concurrency ${concurrency}, PostgreSQL`,
  );
  await time("admin  pending, page 1", "/tickets?status=pending", adminToken);
  await time("admin  open, show all, page 1", "/tickets?status=open&showAll=true", adminToken);
  await time("admin  closed, page 1", "/tickets?status=closed", adminToken);
  await time("admin  closed, page 50", "/tickets?status=closed&pageNumber=50", adminToken);
  await time("admin  search 'Cliente 4242'", "/tickets?searchParam=Cliente%204242", adminToken);
  await time("admin  unread only", "/tickets?status=pending&withUnreadMessages=true", adminToken);
  await time("agent  pending (one queue), page 1", "/tickets?status=pending", agentToken);
  await time("agent  closed (one queue), page 1", "/tickets?status=closed", agentToken);
  await time("admin  messages of a ticket, page 1 (peek)", "/messages/100?peek=true", adminToken);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  // BENCH_KEEP_DB=1 keeps the loaded database for EXPLAIN sessions
  if (process.env.BENCH_KEEP_DB) console.log(`kept database ${dbName}`);
  else await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
