import { describe } from "vitest";
import { adminUrl, type ScratchDatabase, scratchDatabase } from "../../e2e/support/postgres.js";
import { ADMIN, type RunningServer, apiLogin, startServer } from "../../e2e/support/server.js";

export { ADMIN, adminUrl, type ScratchDatabase };

/** A fault suite: runs only with TEST_DATABASE_URL (global-setup.ts fails on CI without it, or says why it skips). */
export function describeFault(name: string, suite: () => void): void {
  describe.skipIf(!adminUrl)(name, suite);
}

/** The database every generation of the server shares, named charla_faults_<name>_<pid>. */
export function faultDatabase(name: string): Promise<ScratchDatabase> {
  return scratchDatabase(name, "charla_faults");
}

/**
 * The built server on one database, started, killed and started again. Every generation gets the same
 * JWT secrets, so a token from before a crash is still good after it, as behind a load balancer.
 */
export class ServerUnderTest {
  private current: RunningServer | null = null;
  private readonly earlier: string[] = [];

  constructor(
    private readonly database: ScratchDatabase,
    private readonly extraEnv: Record<string, string> = {},
  ) {}

  get url(): string {
    if (!this.current) throw new Error("the server is not running");
    return this.current.url;
  }

  async start(): Promise<string> {
    if (this.current) throw new Error("the server is already running");
    const server = await startServer({
      DATABASE_URL: this.database.url,
      REDIS_URL: "",
      JWT_SECRET: "faults-access-secret",
      JWT_REFRESH_SECRET: "faults-refresh-secret",
      // the harness is one client sending thousands of requests a minute, not an abuser
      API_MAX_PER_IP: "1000000000",
      API_MAX_PER_USER: "1000000000",
      WEB_DIST: "",
      LOG_LEVEL: "warn",
      ...this.extraEnv,
    });
    this.current = server;
    // startServer gives up waiting after 90 s without saying so; a fault test must not run against nothing
    const health = await fetch(`${server.url}/healthz`).catch((err: unknown) => err as Error);
    if (health instanceof Error || !health.ok) {
      await this.kill();
      throw new Error(`the server did not become healthy:\n${this.logs()}`);
    }
    return server.url;
  }

  /** SIGKILL: no shutdown work at all, the session leases stay behind until they expire. */
  async kill(): Promise<void> {
    const server = this.current;
    if (!server) return;
    this.current = null;
    await server.kill();
    this.earlier.push(server.logs());
  }

  async stop(): Promise<void> {
    const server = this.current;
    if (!server) return;
    this.current = null;
    await server.stop();
    this.earlier.push(server.logs());
  }

  async login(): Promise<string> {
    return apiLogin(this.url, ADMIN.email, ADMIN.password);
  }

  /** Every generation's output, for a failure's message. */
  logs(): string {
    return [...this.earlier, this.current?.logs() ?? ""].map((out, i) => `--- server generation ${i + 1} ---\n${out}`).join("\n");
  }
}

/**
 * Runs `work` over `items` in their order with at most `concurrency` at once; once `stop()` answers true
 * no further item is started (those under way finish or fail on their own). `work` must not throw.
 */
export async function runBounded<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (!stop() && next < items.length) {
      const i = next++;
      await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return next;
}

/**
 * Waits until no other session is connected to the database. After a SIGKILL, PostgreSQL may still be
 * finishing (committing) what the dead process sent last; only after its backends are gone is what the
 * database holds what the crash left.
 */
export async function untilOnlyUs(database: ScratchDatabase, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await database.db.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    if (Number(rows[0].n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} connections of a killed server still open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `check` until it answers true; throws with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
