// Authenticated API throughput on the built server: every request verifies the token and loads the
// principal (user, company, plan, session) in one query. Prints req/s and latency percentiles.
// Usage: npm run build && node bench/api-throughput.mjs [requests=2000] [concurrency=20]
// With DATABASE_URL set it runs on that PostgreSQL, otherwise on embedded PGlite in a temp folder.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 20);
const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "charla-bench-"));
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;

const server = spawn(process.execPath, [join(root, "server/dist/main.js")], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
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
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}

async function run(label, path, token) {
  const times = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const res = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${path} → ${res.status}`);
        times.push(performance.now() - t0);
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(
    `${label.padEnd(28)} ${(times.length / secs).toFixed(0).padStart(6)} req/s  p50 ${pct(50)} ms  p95 ${pct(95)} ms  p99 ${pct(99)} ms`,
  );
}

try {
  await waitUp();
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@admin.com", password: "bench-pass" }),
  });
  const { token } = await login.json();
  console.log(`${total} requests, concurrency ${concurrency}, database ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`);
  await run("GET /healthz (no database)", "/healthz");
  await run("GET /api/v1/plans/list (public)", "/api/v1/plans/list");
  await run("GET /api/v1/auth/me", "/api/v1/auth/me", token);
  await run("GET /api/v1/users?pageNumber=1", "/api/v1/users?pageNumber=1", token);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
