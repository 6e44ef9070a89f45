import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const ADMIN = { email: "admin@admin.com", password: "e2e-admin-pass" };

export type RunningServer = {
  url: string;
  stop: () => Promise<void>;
  /** SIGKILL: the process dies without any shutdown work, as in a crash. */
  kill: () => Promise<void>;
  logs: () => string;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** Starts the built server (`npm run build` first) on a fresh embedded database. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "charla-e2e-"));
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [join(root, "server/dist/main.js")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  // a busy machine may take minutes to start it (migrations, the seed, the first compile of the
  // statements): wait for it to answer or to die, and say which; only a server silent for ten
  // minutes is given up on, with its output
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /healthz in 10 minutes:\n${output}`);
    }
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    logs: () => output,
    kill: async () => {
      child.kill("SIGKILL");
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the API directly, for set-up steps that are not what the test is about. */
export async function api<T = unknown>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    // a JSON content type with no body is refused by the server, as it should be
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiLogin(base: string, email: string, password: string): Promise<string> {
  return (await api<{ token: string }>(base, "POST", "/auth/login", { email, password })).token;
}
