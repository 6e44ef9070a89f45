import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  describeFault,
  faultDatabase,
  runBounded,
  type ScratchDatabase,
  ServerUnderTest,
  until,
  untilOnlyUs,
} from "./support/harness.js";

// Issue 30: webhook deliveries across a SIGKILL. Many deliveries (the page's test events, sent at once
// by the server that wrote them, as a received message's are) go to a slow receiver; the server is
// killed while some are in flight (the receiver has them, or is answering, and the server has not
// written the outcome), then started again. Every delivery must reach the receiver at least once,
// every request verify with the Standard Webhooks library under the integration's secret, a repeated
// one carry the same webhook-id, and every row end delivered.
const DELIVERIES = 60;
/** The receiver takes this long to answer each request: deliveries pile up in flight. */
const SLOW_MS = 700;

const log = (line: string) => console.log(`faults/integration-deliveries: ${line}`);

describeFault("webhook deliveries across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;
  let receiver: Server;
  let receiverUrl = "";
  /** Each request the receiver read in full: its webhook-id, whether it verified. */
  const got: { id: string; verified: boolean; secretKey: string }[] = [];
  let secret = "";

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let verified = false;
        try {
          new Webhook(secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        got.push({ id: String(req.headers["webhook-id"]), verified, secretKey: String(req.headers["secret-key"]) });
        setTimeout(() => res.writeHead(200).end("ok"), SLOW_MS);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    database = await faultDatabase("integration_deliveries");
    server = new ServerUnderTest(database, {
      JOBS_INTERVAL_MS: "200",
      INTEGRATIONS_ALLOW_PRIVATE: "true",
      WEBHOOK_TIMEOUT_MS: "5000",
      // every generation opens the secrets the first one sealed (each gets a data folder of its own)
      SECRETS_KEY: Buffer.alloc(32, 9).toString("base64"),
    });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it("delivers each at least once after a restart, the same webhook-id on every attempt, every row delivered", async () => {
    const db = database.db;
    const started = Date.now();
    await db.query("update plans set use_integrations = true");
    const token = await server.login();
    const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const created = await fetch(`${server.url}/api/v1/queueIntegration`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "webhook", name: "Receptor lento", urlN8N: receiverUrl }),
    });
    expect(created.status).toBe(201);
    const integration = (await created.json()) as { id: number; apikey: string };
    secret = integration.apikey;

    // the burst: every test event is written with its job and sent at once by this server
    const sent: string[] = [];
    const base = server.url;
    await runBounded(
      Array.from({ length: DELIVERIES }, (_, i) => i),
      10,
      async () => {
        const res = await fetch(`${base}/api/v1/queueIntegration/${integration.id}/test`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.status === 201) sent.push(((await res.json()) as { webhookId: string }).webhookId);
      },
      () => false,
    );
    expect(sent).toHaveLength(DELIVERIES);

    const states = async () => {
      const { rows } = await db.query<{ status: string; n: number }>(
        "select status, count(*)::int as n from integration_deliveries where integration_id = $1 group by status",
        [integration.id],
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number | undefined>;
    };
    // --- the kill, with some delivered and others at the receiver, not yet answered
    await until(
      "some delivered, some in flight",
      async () => (await states()).delivered !== undefined && got.length > 5,
      30_000,
      20,
    );
    await server.kill();
    await untilOnlyUs(database);
    const atKill = await states();
    const receivedAtKill = got.length;
    log(
      `kill after ${((Date.now() - started) / 1000).toFixed(1)} s: ${atKill.delivered ?? 0} delivered, ` +
        `${atKill.pending ?? 0} pending, ${atKill.retrying ?? 0} retrying; the receiver had ${receivedAtKill} requests`,
    );
    expect(atKill.delivered ?? 0).toBeLessThan(DELIVERIES);

    // --- a new process sends the rest, and those in flight once their job's lease (30 s) lapsed
    await server.start();
    await until("every delivery delivered", async () => (await states()).delivered === DELIVERIES, 120_000, 250);
    log(`restart: all delivered ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);

    const rows = (
      await db.query<{ webhook_id: string; status: string; attempts: number }>(
        "select webhook_id, status, attempts from integration_deliveries where integration_id = $1",
        [integration.id],
      )
    ).rows;
    expect(rows).toHaveLength(DELIVERIES);
    expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
    // each arrived at least once, under its own id, verifiable, with the secret key
    const perId = new Map<string, number>();
    for (const g of got) perId.set(g.id, (perId.get(g.id) ?? 0) + 1);
    expect(new Set(sent)).toEqual(new Set(perId.keys()));
    expect(got.filter((g) => !g.verified || g.secretKey !== secret)).toEqual([]);
    const repeated = [...perId].filter(([, n]) => n > 1);
    // only the deliveries in flight at the kill may come twice (the receiver dedupes by webhook-id)
    expect(repeated.length).toBeLessThanOrEqual(DELIVERIES - (atKill.delivered ?? 0));
    log(`receiver: ${got.length} requests for ${DELIVERIES} deliveries, ${repeated.length} came again with the same webhook-id`);
  });
});
