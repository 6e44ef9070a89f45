import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl, type ScratchDatabase, scratchDatabase } from "./support/postgres.js";
import { setUpTwoLevelBot } from "./support/chatbot.js";
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

  it("walks the chatbot through both processes without doubling any message", async () => {
    // one login serves both processes (same database and secrets); a second would end the first
    const token = await apiLogin(one.url, ADMIN.email, ADMIN.password);
    const tokenTwo = token;
    const setup = await setUpTwoLevelBot(one.url, token, {
      welcome: "¡Hola! Elija un área:",
      ventas: "Ventas",
      soporte: "Soporte",
      ventasGreeting: "Ventas aquí.",
      precios: "Elija:",
      leaf: "Le escribe un asesor.",
    });
    const simulator = { id: setup.simulatorId };
    await expect
      .poll(async () => (await leases()).some((l) => l.whatsapp_id === simulator.id), { timeout: 40_000, interval: 500 })
      .toBe(true);

    // the customer's answers arrive through either process; the session's holder runs the bot once each
    const number = "5215544443333";
    const bot = async () =>
      (
        await db.query(
          "select m.body from messages m join contacts c on c.id = m.contact_id where c.number = $1 and m.is_automatic order by m.id",
          [number],
        )
      ).rows.map((r: { body: string }) => r.body);
    const steps: [RunningServer, string, string, number][] = [
      [one, token, "Hola", 1],
      [two, tokenTwo, "9", 2],
      [one, token, "1", 3],
      [two, tokenTwo, "1", 4],
      [one, token, "1", 5],
    ];
    for (const [server, auth, body, expected] of steps) {
      await api(server.url, "POST", `/simulator/${simulator.id}/inbound`, { number, body }, auth);
      await expect.poll(async () => (await bot()).length, { timeout: 15_000, interval: 300 }).toBe(expected);
    }
    const said = await bot();
    expect(said[0]).toContain("¡Hola! Elija un área:");
    expect(said[1]).toBe(said[0]);
    expect(said[2]).toContain("Ventas aquí.");
    expect(said[3]).toContain("Elija:");
    expect(said[4]).toContain("Le escribe un asesor.");
    // nothing more comes later: each step answered exactly once
    await new Promise((r) => setTimeout(r, 2000));
    expect(await bot()).toHaveLength(5);
    await setup.reset();
  }, 120_000);

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

      // a location and a contact card too (issue 27: sendShared was not forwarded to the holder)
      const shares = [
        { location: { latitude: -23.5505, longitude: -46.6333, description: "Paulista 1000" } },
        { contact: { name: "Ana Soporte", number: "+52 1 55 1234 5678" } },
      ];
      for (const share of shares) {
        const [shared] = await api<{ id: number }[]>(one.url, "POST", `/messages/${res.ticketId}`, share, token);
        await expect
          .poll(async () => (await db.query("select ack from messages where id = $1", [shared.id])).rows[0].ack, {
            timeout: 15_000,
            interval: 300,
          })
          .toBeGreaterThanOrEqual(1);
      }
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
