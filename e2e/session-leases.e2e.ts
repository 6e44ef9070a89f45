import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, type ScratchDatabase, scratchDatabase } from "./support/postgres.js";
import { ADMIN, type RunningServer, api, apiLogin, startServer } from "./support/server.js";

// Two server processes on one real PostgreSQL: each connection's session runs on exactly one of them
// (a lease row), the sessions are shared between them, and when one dies by SIGKILL the other takes
// its sessions once the leases expire (within 30 s).
const redisUrl = process.env.REDIS_URL;

type Lease = { whatsapp_id: number; owner: string };

describe.runIf(adminUrl && redisUrl)("session leases across two processes", () => {
  let scratch: ScratchDatabase;
  const db = { query: (sql: string, params?: unknown[]) => scratch.db.query(sql, params) };
  let one: RunningServer;
  let two: RunningServer;

  beforeAll(async () => {
    scratch = await scratchDatabase("leases");
    const env = {
      DATABASE_URL: scratch.url,
      REDIS_URL: redisUrl as string,
      JWT_SECRET: "e2e-leases-a",
      JWT_REFRESH_SECRET: "e2e-leases-r",
    };
    // one after the other: the first migrates and seeds
    one = await startServer(env);
    two = await startServer(env);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await scratch?.drop();
  });

  const leases = async (): Promise<Lease[]> =>
    (await db.query("select whatsapp_id, owner from session_leases where expires_at > now() order by whatsapp_id")).rows;

  it("shares the sessions between the processes and moves a killed one's sessions to the other", async () => {
    const token = await apiLogin(one.url, ADMIN.email, ADMIN.password);
    for (const n of [1, 2, 3]) {
      const wa = await api<{ id: number }>(
        one.url,
        "POST",
        "/whatsapp",
        { name: `Simulador ${n}`, number: `52155000000${n}`, provider: "simulator" },
        token,
      );
      await api(one.url, "POST", `/whatsappsession/${wa.id}`, undefined, token);
    }
    const wanted = (await db.query("select id from whatsapps where status <> 'DISCONNECTED'")).rows.length;
    expect(wanted).toBe(4);

    // every session held once, by both processes between them
    await expect
      .poll(
        async () => {
          const rows = await leases();
          return rows.length === wanted && new Set(rows.map((r) => r.owner)).size === 2;
        },
        { timeout: 40_000, interval: 500 },
      )
      .toBe(true);
    const before = await leases();
    const owners = [...new Set(before.map((r) => r.owner))];

    // any process serves any session: through process one, a customer writes on every connection
    // (half of them held by process two) and an agent's answer reaches the phone with its read ack
    for (const { whatsapp_id } of before) {
      const res = await api<{ stored: boolean; ticketId: number }>(
        one.url,
        "POST",
        `/simulator/${whatsapp_id}/inbound`,
        { number: `5215577770${whatsapp_id}`.padEnd(13, "0"), body: "Hola" },
        token,
      );
      expect(res.stored).toBe(true);
      await api(one.url, "PUT", `/tickets/${res.ticketId}`, { status: "open", userId: 1 }, token);
      const [sent] = await api<{ id: number }[]>(one.url, "POST", `/messages/${res.ticketId}`, { body: "¡Hola!" }, token);
      await expect
        .poll(async () => (await db.query("select ack from messages where id = $1", [sent.id])).rows[0].ack, {
          timeout: 15_000,
          interval: 300,
        })
        .toBe(3);
      // the phone reads it when told to, through either process: two blue ticks (4)
      await api(two.url, "POST", `/simulator/${whatsapp_id}/read`, { number: `5215577770${whatsapp_id}`.padEnd(13, "0") }, token);
      await expect
        .poll(async () => (await db.query("select ack from messages where id = $1", [sent.id])).rows[0].ack, {
          timeout: 15_000,
          interval: 300,
        })
        .toBe(4);
    }

    // which process is which: the one that keeps renewing after the kill is two
    await one.kill();
    await expect
      .poll(
        async () => {
          const rows = await leases();
          return rows.length === wanted && new Set(rows.map((r) => r.owner)).size === 1;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    const after = await leases();
    expect(owners).toContain(after[0].owner);
    const statuses = (await db.query("select status from whatsapps")).rows.map((r: { status: string }) => r.status);
    expect(statuses.every((s: string) => s === "CONNECTED")).toBe(true);
    // the survivor serves the moved sessions: a customer message on any of them lands
    const tokenTwo = await apiLogin(two.url, ADMIN.email, ADMIN.password);
    for (const { whatsapp_id } of after) {
      const res = await api<{ stored: boolean }>(
        two.url,
        "POST",
        `/simulator/${whatsapp_id}/inbound`,
        { number: `5215599990${whatsapp_id}`.padEnd(13, "0"), body: "¿Siguen ahí?" },
        tokenTwo,
      );
      expect(res.stored).toBe(true);
    }
  }, 120_000);
});
