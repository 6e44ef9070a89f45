// What a browser downloads to show the login page and the inbox (core §9 targets, issue 9): the
// JavaScript transferred (compressed as sent) before each screen is usable, and the time to the first
// ticket row, in Debian's headless Chromium against the built server (`npm run build` first).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "charla-bench-web-"));
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const password = "bench-pass";

const server = spawn(process.execPath, [join(root, "server/dist/main.js")], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    ADMIN_PASSWORD: password,
    LOG_LEVEL: "error",
  },
  stdio: "inherit",
});
const stop = () => {
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
};

for (let i = 0; i < 240; i++) {
  if (
    await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false)
  )
    break;
  await new Promise((r) => setTimeout(r, 250));
}
// one customer conversation, so the inbox has a row to draw
const token = (
  await (
    await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@admin.com", password }),
    })
  ).json()
).token;
const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
const call = async (method, path, body) => {
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
// a fresh install has its simulator connection (the test phone)
const simulator = (await call("GET", "/whatsapp")).find((w) => w.provider === "simulator");
const { ticketId } = await call("POST", `/simulator/${simulator.id}/inbound`, {
  number: "5215512345678",
  body: "Hola, ¿tienen envíos?",
});
await call("PUT", `/tickets/${ticketId}`, { status: "open" });

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

// --list: each script as it arrives, with its bytes as sent
const listScripts = process.argv.includes("--list");

/** Opens `path` with an empty cache and sums the encoded bytes of every script until `ready` holds. */
async function weigh(context, path, ready) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const sizes = [];
  page.on("response", (res) => {
    // bytes on the wire: the (compressed) body's length as sent
    if (res.request().resourceType() === "script")
      sizes.push(
        res.body().then((b) => {
          const n = Number(res.headers()["content-length"] ?? b.length);
          if (listScripts) console.log(`  ${path} ${String(n).padStart(7)} ${new URL(res.url()).pathname}`);
          return n;
        }),
      );
  });
  const started = Date.now();
  await page.goto(`${base}${path}`);
  await ready(page);
  const ms = Date.now() - started;
  const js = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await page.close();
  return { js, ms };
}

let login;
let inbox;
try {
  const context = await browser.newContext({ locale: "es-ES" });
  login = await weigh(context, "/login", (p) => p.waitForSelector('input[type="password"]'));
  // log in once through the form; the inbox is then opened cold, as after a restart of the browser
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill('input[type="email"], input[name="email"]', "admin@admin.com");
  await page.fill('input[type="password"]', password);
  await page.keyboard.press("Enter");
  await page.getByTestId("ticket-item").first().waitFor({ timeout: 20_000 });
  await page.close();
  inbox = await weigh(context, "/tickets", (p) => p.getByTestId("ticket-item").first().waitFor({ timeout: 20_000 }));
} finally {
  await browser.close();
  stop();
}

const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log("figure                                          value      goal");
console.log(`login page, empty cache: JS (as sent)          ${kb(login.js).padEnd(10)} ≤ 200 KB`);
console.log(`inbox, logged in, empty cache: JS (as sent)    ${kb(inbox.js).padEnd(10)} ≤ 250 KB`);
console.log(`inbox, logged in, empty cache: first row       ${`${inbox.ms} ms`.padEnd(10)} ≤ 1000 ms`);
