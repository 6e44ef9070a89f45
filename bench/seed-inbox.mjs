// The Whaticket workload of issue 9 on a real PostgreSQL: 1 company, 5 queues, 20k contacts, 100k tickets
// (5 / 15 / 80 % pending / open / closed), 1M messages of 5–20 Spanish words, "reembolso" in ~68k of them.
// Creates a fresh database, lets the built server migrate and seed it (start, /healthz, stop), then bulk
// loads the rows with set-based SQL (insert … select … from generate_series). `--quick`: 2k contacts, 10k
// tickets, 100k messages.
//
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/seed-inbox.mjs [--quick] [--db charla_bench_x]
// DATABASE_URL (or TEST_DATABASE_URL) names a server whose role may create databases; the bench database
// is created beside it (an existing one of the same name is dropped first).
//
// Reuse: `import { seedInbox } from "./seed-inbox.mjs"` → { url, dbName, adminEmail, password, agents, counts, seconds }.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const serverRequire = createRequire(join(root, "server/package.json"));
const pg = serverRequire("pg");

export const FULL = { contacts: 20_000, tickets: 100_000, messages: 1_000_000, agents: 8 };
export const QUICK = { contacts: 2_000, tickets: 10_000, messages: 100_000, agents: 8 };
export const ADMIN_EMAIL = "admin@admin.com";
export const PASSWORD = "bench-pass-9";
export const QUEUES = [
  ["Ventas", "#2e7d32"],
  ["Soporte", "#1565c0"],
  ["Cobranza", "#c62828"],
  ["Reclamos", "#ef6c00"],
  ["Postventa", "#6a1b9a"],
];
/** Share of messages that contain "reembolso" (68k of 1M in the issue's workload). */
const REEMBOLSO_SHARE = 0.068;

// A plain vocabulary of customer-service Spanish; "reembolso" is kept out of it so its count is exact by construction.
const WORDS = `hola buenas tardes días noches quisiera saber consultar sobre mi pedido número compra factura envío
entrega paquete producto precio pago tarjeta transferencia cuenta cliente servicio atención ayuda por favor gracias
muchas necesito tengo problema con el la los las un una que de del al para por como cuando donde cuál cuánto
todavía no llegó hoy mañana ayer semana pasada próxima dirección domicilio sucursal horario abierto cerrado
llamar esperar respuesta pronto urgente disculpe perdón claro perfecto listo entendido confirmo confirmar cancelar
cambiar talle color modelo garantía técnico reparación devolución cambio cuota cuotas descuento promoción oferta
stock disponible agotado demora seguimiento código correo teléfono whatsapp mensaje nombre apellido documento
dni comprobante recibo transferí pagué cobro cobraron doble error sistema página web aplicación usuario clave
acceso ingresar registrarme datos actualizar plan contrato baja alta suscripción mensual anual vencimiento
importe total saldo deuda interés recargo envíen manden revisen verifiquen estado reclamo queja sugerencia
vendedor encargado supervisor área ventas soporte cobranza postventa buen día señor señora atentamente saludos`
  .split(/\s+/)
  .filter(Boolean);
const FIRST = `María José Juan Ana Luis Carmen Carlos Laura Jorge Lucía Pedro Sofía Miguel Valentina Diego Camila Pablo
Martina Andrés Paula Javier Florencia Fernando Gabriela Ricardo Daniela Alejandro Natalia Sergio Verónica`.split(/\s+/);
const LAST = `García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández Díaz
Moreno Álvarez Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Suárez Molina`.split(
  /\s+/,
);

/** A deterministic pseudo-random non-negative bigint of (expr, seed). */
const h = (expr, seed) => `(hashint8extended((${expr})::bigint, ${seed}) & 9223372036854775807)`;
const sqlText = (s) => `'${s.replaceAll("'", "''")}'`;
const sqlArray = (xs) => `array[${xs.map(sqlText).join(",")}]::text[]`;

export function adminUrlFromEnv() {
  const raw = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!raw) throw new Error("Set DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server whose role may create databases.");
  return new URL(raw);
}

export function dbUrl(adminUrl, dbName) {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u;
}

/** Starts the built server on `url`; resolves once /healthz answers. `stop()` ends it. */
export async function startServer(url, { port = 18_000 + Math.floor(Math.random() * 1000), env = {}, stdio = "inherit" } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "charla-bench-"));
  const child = spawn(process.execPath, [join(root, "server/dist/main.js")], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      REDIS_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: "error",
      WEB_DIST: "",
      // one token stands in for a whole office of agents: the per-user/per-address limits would measure the limiter
      API_MAX_PER_IP: "1000000000",
      API_MAX_PER_USER: "1000000000",
      ...env,
    },
    stdio,
  });
  let exited = false;
  const exit = new Promise((r) =>
    child.once("exit", () => {
      exited = true;
      r();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) child.kill("SIGTERM");
    const t = setTimeout(() => exited || child.kill("SIGKILL"), 10_000);
    await exit;
    clearTimeout(t);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error("server exited before answering /healthz (is server/dist built? npm run build)");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, port, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("server did not answer /healthz in 120 s");
}

/** The indexes that are not constraints: dropped for the bulk load and built again after (faster than row by row). */
async function dropPlainIndexes(db, tables) {
  const { rows } = await db.query(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i
     where i.indrelid = any($1::regclass[])
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const r of rows) await db.query(`drop index ${r.name}`);
  return rows.map((r) => r.def);
}

/**
 * Seeds the workload into a fresh database `dbName` on the server of `adminUrl`.
 * @param {{ adminUrl?: URL, dbName?: string, quick?: boolean, sizes?: typeof FULL, log?: (s: string) => void }} [opts]
 */
export async function seedInbox(opts = {}) {
  const adminUrl = opts.adminUrl ?? adminUrlFromEnv();
  const sizes = opts.sizes ?? (opts.quick ? QUICK : FULL);
  const dbName = opts.dbName ?? `charla_bench_inbox${opts.quick ? "_quick" : ""}`;
  if (!/^charla_bench_[a-z0-9_]+$/.test(dbName)) throw new Error(`database name must match charla_bench_[a-z0-9_]+: ${dbName}`);
  const log = opts.log ?? ((s) => console.log(s));
  const { contacts: C, tickets: T, agents: A } = sizes;
  const P = Math.floor(sizes.messages / T); // messages per ticket
  const live = Math.round(T * 0.2); // pending + open: the newest ticket of each of the first `live` contacts
  if (live > C) throw new Error("20 % of the tickets are live, at most one per contact: need tickets ≤ 5 × contacts");
  if (P < 2) throw new Error("need at least 2 messages per ticket");
  const started = performance.now();
  const url = dbUrl(adminUrl, dbName);

  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.query(`create database ${dbName}`);
  } finally {
    await admin.end();
  }

  // the real server migrates and seeds (plan, company 1, the simulator connection, settings, super admin)
  const server = await startServer(url);
  await server.stop();
  log(`  migrated and seeded by the server in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const argon2 = serverRequire("argon2");
  const hash = await argon2.hash(PASSWORD, { type: argon2.argon2id });
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const step = async (label, sql, params) => {
    const t0 = performance.now();
    const res = await db.query(sql, params);
    log(
      `  ${label.padEnd(34)} ${String(res.rowCount ?? "").padStart(8)} rows  ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return res;
  };
  try {
    const {
      rows: [{ wid }],
    } = await db.query("select id as wid from whatsapps where company_id = 1 order by id limit 1");
    await db.query("begin");
    // agents may outnumber the seeded plan's users
    await db.query("update plans set users = greatest(users, $1), queues = greatest(queues, 10)", [A + 5]);
    const queueRows = (
      await db.query(
        `insert into queues (company_id, name, color, order_queue)
         select 1, q.name, q.color, q.ord from unnest($1::text[], $2::text[]) with ordinality q(name, color, ord)
         returning id`,
        [QUEUES.map((q) => q[0]), QUEUES.map((q) => q[1])],
      )
    ).rows.map((r) => r.id);
    await db.query("insert into whatsapp_queues (company_id, whatsapp_id, queue_id) select 1, $1, unnest($2::int[])", [
      wid,
      queueRows,
    ]);
    // agents: agent a serves queues a % 5 and (a + 1) % 5, so each queue has at least two agents
    const agents = [];
    for (let a = 0; a < A; a++) {
      const email = `agente${a + 1}@bench.test`;
      const {
        rows: [{ id }],
      } = await db.query(
        `insert into users (company_id, name, email, password_hash, profile) values (1, $1, $2, $3, 'user') returning id`,
        [`Agente ${a + 1}`, email, hash],
      );
      const qs = [queueRows[a % 5], queueRows[(a + 1) % 5]];
      await db.query("insert into user_queues (company_id, user_id, queue_id) select 1, $1, unnest($2::int[])", [id, qs]);
      agents.push({ id, email, queueIds: qs });
    }
    // the admin is in every queue too
    const {
      rows: [{ id: adminId }],
    } = await db.query("select id from users where email = $1", [ADMIN_EMAIL]);
    await db.query(
      "insert into user_queues (company_id, user_id, queue_id) select 1, $1, unnest($2::int[]) on conflict do nothing",
      [adminId, queueRows],
    );
    await db.query("commit");
    // the user who serves ticket i in queue slot q: CASE over the queues' agent lists
    const agentOf = (iExpr, qExpr) =>
      `case ${qExpr} ${queueRows
        .map((qid, q) => {
          const ids = agents.filter((a) => a.queueIds.includes(qid)).map((a) => a.id);
          return `when ${q} then (array[${ids.join(",")}])[1 + (${iExpr}) % ${ids.length}]`;
        })
        .join(" ")} end`;

    const dropped = await dropPlainIndexes(db, ["contacts", "tickets", "messages", "ticket_tracking", "user_ratings"]);
    // the GIN (trigram, full-text) builds are most of the load's time; more memory makes them faster
    await db.query("set maintenance_work_mem = '256MB'");

    // phrases: message body = a || ' ' || b, a of 3–10 words, b of 2–10 words (5–20 together); REEMBOLSO_SHARE of the
    // a-phrases carry "reembolso", and the picks are uniform, so about that share of the messages does
    await db.query(`create temp table frag_a as
      select f as id, (select string_agg(case when f <= ${Math.round(1000 * REEMBOLSO_SHARE)} and j = 2 then 'reembolso'
                                              else (${sqlArray(WORDS)})[1 + ${h("f * 64 + j", 11)} % ${WORDS.length}] end, ' ' order by j)
                       from generate_series(1, 3 + (${h("f", 12)} % 8)::int) j) as txt
      from generate_series(1, 1000) f`);
    await db.query(`create temp table frag_b as
      select f as id, (select string_agg((${sqlArray(WORDS)})[1 + ${h("f * 64 + j", 13)} % ${WORDS.length}], ' ' order by j)
                       from generate_series(1, 2 + (${h("f", 14)} % 9)::int) j) as txt
      from generate_series(1, 1000) f`);
    await db.query("analyze frag_a; analyze frag_b");
    // message n's phrase picks, shared by the messages insert and tickets.last_message
    const fa = (n) => `(1 + ${h(n, 21)} % 1000)`;
    const fb = (n) => `(1 + ${h(n, 22)} % 1000)`;

    await step(
      "contacts",
      `insert into contacts (id, company_id, name, number, created_at, updated_at)
       select g, 1,
              (${sqlArray(FIRST)})[1 + g % ${FIRST.length}] || ' ' || (${sqlArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}],
              '549' || lpad((1100000000 + g)::text, 10, '0'),
              now() - interval '400 days', now() - interval '400 days'
       from generate_series(1, $1::int) g`,
      [C],
    );
    // ticket i: contact 1 + (i - 1) % C; ids grow with time (5 minutes apart, the newest now); the newest `live`
    // tickets are the live ones (one per contact), a quarter of them pending (unassigned), the rest open
    // (assigned); the older ones closed. Live tickets have 0–2 unread messages. Their last message is message
    // (i, P - 1), an inbound one.
    const lastMsg = `((t.i - 1) * ${P} + ${P - 1})::bigint`;
    await step(
      "tickets",
      `insert into tickets (id, company_id, status, contact_id, whatsapp_id, queue_id, user_id, last_message,
                            unread_messages, created_at, updated_at)
       select t.i, 1, t.status, 1 + (t.i - 1) % ${C}, ${wid}, ($1::int[])[1 + t.i % 5],
              case when t.status = 'pending' then null else ${agentOf("t.i / 5", "t.i % 5")} end,
              a.txt || ' ' || b.txt,
              case when t.status = 'closed' then 0 else t.i % 3 end,
              t.at - ${P} * interval '1 minute', t.at
       from (select i, now() - (${T} - i) * interval '5 minutes' as at,
                    case when i <= ${T - live} then 'closed' when i % 4 = 0 then 'pending' else 'open' end as status
             from generate_series(1, ${T}) i) t
       join frag_a a on a.id = ${fa(lastMsg)}
       join frag_b b on b.id = ${fb(lastMsg)}`,
      [queueRows],
    );
    // message n = (i - 1) * P + k, k = 0 … P - 1, one a minute up to the ticket's updatedAt; the last is inbound and
    // they alternate back from it; agents' messages are delivered (ack 3) and carry the ticket's user; the ticket's
    // last `unread` inbound ones are unread
    await step(
      "messages",
      `insert into messages (id, company_id, ticket_id, contact_id, whatsapp_id, channel_id, body, from_me, read, ack,
                             media_type, user_id, created_at, updated_at)
       select m.n + 1, 1, t.id, t.contact_id, t.whatsapp_id, 'BENCH' || m.n, a.txt || ' ' || b.txt, m.from_me,
              m.from_me or ${P - 1} - m.k >= 2 * t.unread_messages, case when m.from_me then 3 else 0 end,
              'chat', case when m.from_me then t.user_id end,
              t.updated_at - (${P - 1} - m.k) * interval '1 minute', t.updated_at - (${P - 1} - m.k) * interval '1 minute'
       from (select n, n / ${P} + 1 as ticket, n % ${P} as k, (${P - 1} - n % ${P}) % 2 = 1 as from_me
             from generate_series(0::bigint, ${T * P - 1}::bigint) n) m
       join tickets t on t.id = m.ticket
       join frag_a a on a.id = ${fa("m.n")}
       join frag_b b on b.id = ${fb("m.n")}`,
    );
    // the dashboard's history (issue 12): each ticket one episode, queued when it was created, taken 1–7 minutes
    // later unless pending, finished at its last activity when closed; a quarter of the closed ones rated 1–3
    await step(
      "ticket_tracking",
      `insert into ticket_tracking (company_id, ticket_id, whatsapp_id, queue_id, user_id, queued_at, started_at,
                                    finished_at, rated, created_at, updated_at)
       select 1, t.id, t.whatsapp_id, t.queue_id, t.user_id, t.created_at,
              case when t.status <> 'pending' then t.created_at + (1 + t.id % 7) * interval '1 minute' end,
              case when t.status = 'closed' then t.updated_at end,
              t.status = 'closed' and t.id % 4 = 0, t.created_at, t.updated_at
       from tickets t`,
    );
    await step(
      "user_ratings",
      `insert into user_ratings (company_id, ticket_id, user_id, rate, created_at, updated_at)
       select 1, t.id, t.user_id, 1 + t.id % 3, t.updated_at, t.updated_at
       from tickets t where t.status = 'closed' and t.id % 4 = 0`,
    );
    for (const seq of ["contacts", "tickets", "messages"]) {
      await db.query(`select setval(pg_get_serial_sequence('${seq}', 'id'), (select max(id) from ${seq}))`);
    }
    const t0 = performance.now();
    for (const def of dropped) await db.query(def);
    log(`  ${dropped.length} indexes built again in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    await db.query("vacuum analyze contacts, tickets, messages, ticket_tracking, user_ratings, users, user_queues, queues");
    log(`  vacuum analyze ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const {
      rows: [counts],
    } = await db.query(`select (select count(*)::int from contacts) as contacts,
        (select count(*)::int from tickets where status = 'pending') as pending,
        (select count(*)::int from tickets where status = 'open') as open,
        (select count(*)::int from tickets where status = 'closed') as closed,
        (select count(*)::int from messages) as messages,
        (select count(*)::int from messages where body like '%reembolso%') as reembolso`);
    const seconds = (performance.now() - started) / 1000;
    return { url, dbName, adminEmail: ADMIN_EMAIL, password: PASSWORD, agents, queueIds: queueRows, counts, seconds };
  } finally {
    await db.end();
  }
}

/** The bench database as a previous run left it (for --reuse): the same shape as seedInbox's answer. */
export async function describeSeeded(adminUrl, dbName) {
  const url = dbUrl(adminUrl, dbName);
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const queueIds = (await db.query("select id from queues where company_id = 1 order by id")).rows.map((r) => r.id);
    const agents = (
      await db.query(
        `select u.id, u.email, array_agg(uq.queue_id order by uq.queue_id) as "queueIds"
         from users u join user_queues uq on uq.user_id = u.id where u.email like 'agente%@bench.test' group by u.id order by u.id`,
      )
    ).rows;
    const {
      rows: [counts],
    } = await db.query(`select (select count(*)::int from contacts) as contacts,
        (select count(*)::int from tickets where status = 'pending') as pending,
        (select count(*)::int from tickets where status = 'open') as open,
        (select count(*)::int from tickets where status = 'closed') as closed,
        (select count(*)::int from messages) as messages,
        (select count(*)::int from messages where body like '%reembolso%') as reembolso`);
    return { url, dbName, adminEmail: ADMIN_EMAIL, password: PASSWORD, agents, queueIds, counts, seconds: 0 };
  } finally {
    await db.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const dbIdx = args.indexOf("--db");
  const dbName = dbIdx >= 0 ? args[dbIdx + 1] : undefined;
  const res = await seedInbox({ quick, dbName });
  console.log(`seeded ${res.dbName} in ${res.seconds.toFixed(1)} s:`, res.counts);
  console.log(`log in as ${res.adminEmail} or ${res.agents[0].email}, password ${res.password}`);
}
