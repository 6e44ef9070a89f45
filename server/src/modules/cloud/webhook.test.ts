import { Writable } from "node:stream";
import { Ack } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { cloudWindows, jobs, messages, tickets } from "../../db/schema/index.js";
import { cloudWebhookJob, processCloudWebhook } from "../../jobs/durable/cloud-webhook.js";
import { runJobNow } from "../../jobs/durable/run.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type CloudConnection, cloudConnection } from "../../test/cloud-kit.js";
import * as P from "../../test/cloud-payloads.js";
import { buildCompany, buildContact, buildMessage, buildTicket, buildWhatsapp } from "../../test/factories.js";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
const logged = () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string; whatsappId?: number });

let t: TestApp;
/** The test database's app with a logger whose lines the test reads. */
let app: FastifyInstance;
let fake: FakeGraph;
let companyId: number;
let conn: CloudConnection;

beforeAll(async () => {
  fake = await startFakeGraph();
  t = await getTestApp({ graphApiUrl: fake.baseUrl });
  app = await buildApp({ ...t.config, logLevel: "info" }, { database: t.database, seed: false, logStream });
  await app.ready();
  companyId = (await buildCompany(app)).id;
  conn = await cloudConnection(app, companyId, fake);
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  await fake?.close();
});

const db = () => app.charla.db;
const url = (c: { webhookKey: string } = conn) => `/api/whatsapp-cloud/webhook/${encodeURIComponent(c.webhookKey)}`;
const business = () => ({ phoneNumberId: fake.phoneNumberId, businessAccountId: fake.businessAccountId });

/** Meta's POST: the body as bytes, signed with the app secret unless told otherwise. */
function post(payload: unknown, opts: { signature?: string | null; c?: CloudConnection; contentType?: string } = {}) {
  const c = opts.c ?? conn;
  const raw = typeof payload === "string" ? payload : JSON.stringify(payload);
  const signature = opts.signature === undefined ? P.signBody(raw, c.appSecret) : opts.signature;
  return app.inject({
    method: "POST",
    url: url(c),
    payload: raw,
    headers: {
      "content-type": opts.contentType ?? "application/json",
      ...(signature !== null ? { "x-hub-signature-256": signature } : {}),
    },
  });
}

const webhookJobs = (whatsappId = conn.id) =>
  db()
    .select()
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, "cloud.webhook")))
    .then((rows) => rows.filter((j) => (j.payload as { whatsappId: number }).whatsappId === whatsappId));
const stored = (channelId: string, whatsappId = conn.id) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId)));
/** Every job of this connection run to its end (done or dead): nothing left pending or running. */
const settled = async () => {
  await expect
    .poll(async () => (await webhookJobs()).filter((j) => j.state === "pending" || j.state === "running").length, {
      timeout: 10_000,
    })
    .toBe(0);
};
const windowOf = async (number: string, whatsappId = conn.id) =>
  (
    await db()
      .select()
      .from(cloudWindows)
      .where(and(eq(cloudWindows.whatsappId, whatsappId), eq(cloudWindows.number, number)))
  )[0]?.lastInboundAt ?? null;

describe("GET verification", () => {
  const verify = (query: string, c: { webhookKey: string } = conn) => app.inject({ method: "GET", url: `${url(c)}?${query}` });

  it("echoes the challenge as text for subscribe with the connection's verify token", async () => {
    const res = await verify(
      `hub.mode=subscribe&hub.verify_token=${encodeURIComponent(conn.verifyToken)}&hub.challenge=1158201444`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toBe("1158201444");
  });

  it("refuses another token, another mode or none (403), and a key no Cloud API connection has (404)", async () => {
    for (const q of [
      "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1",
      `hub.mode=unsubscribe&hub.verify_token=${conn.verifyToken}&hub.challenge=1`,
      "hub.mode=subscribe&hub.challenge=1",
      "",
    ]) {
      const res = await verify(q);
      expect(res.statusCode, q).toBe(403);
      expect(res.json().error).toBe("ERR_CLOUD_VERIFY_TOKEN");
    }
    expect(
      (await verify(`hub.mode=subscribe&hub.verify_token=${conn.verifyToken}`, { webhookKey: "no-such-key" })).statusCode,
    ).toBe(404);
    // a WhatsApp Web connection with a key (left from a provider change) is not a webhook
    const web = await buildWhatsapp(app, companyId, { provider: "beta", cloudWebhookKey: `web-${conn.webhookKey}` });
    const res = await verify(`hub.mode=subscribe&hub.verify_token=${conn.verifyToken}&hub.challenge=1`, {
      webhookKey: web.cloudWebhookKey ?? "",
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("POST signature", () => {
  it("refuses an unsigned, forged or other-secret call with 401 and writes nothing", async () => {
    const before = (await webhookJobs()).length;
    const payload = P.text("firmado no", { from: "5215500000101" }, business());
    const raw = JSON.stringify(payload);
    for (const signature of [
      null,
      "",
      "sha256=deadbeef",
      P.signBody(raw, "not-the-app-secret"),
      P.signBody(`${raw} `, conn.appSecret),
    ]) {
      const res = await post(raw, { signature });
      expect(res.statusCode, String(signature)).toBe(401);
      expect(res.json().error).toBe("ERR_CLOUD_SIGNATURE");
    }
    expect(await webhookJobs()).toHaveLength(before);
    // each refusal a warning that says which connection and why, never the secret
    const refusals = logged().filter(
      (l) => l.msg === "whatsapp cloud webhook refused: no valid signature" && l.whatsappId === conn.id,
    );
    expect(refusals.map((l) => [l.level, l.reason])).toEqual([
      [40, "unsigned"],
      [40, "unsigned"],
      [40, "forged"],
      [40, "forged"],
      [40, "forged"],
    ]);
    expect(lines.some((l) => l.includes(conn.appSecret))).toBe(false);
    const wamid = (payload.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
    expect(await stored(wamid)).toEqual([]);
  });

  it("another connection's secret does not open this one's URL", async () => {
    const other = await cloudConnection(app, companyId, fake);
    const raw = JSON.stringify(P.text("cruzado", {}, business()));
    const res = await post(raw, { signature: P.signBody(raw, other.appSecret) });
    expect(res.statusCode).toBe(401);
  });

  it("takes JSON only (415), valid JSON only (400), bounded bodies (413)", async () => {
    expect((await post("hola", { contentType: "text/plain" })).statusCode).toBe(415);
    expect((await post("{not json")).statusCode).toBe(400);
    expect((await post(`{"x":"${"a".repeat(3 * 1024 * 1024)}"}`)).statusCode).toBe(413);
  });
});

describe("POST: one durable row, processed through the inbound door", () => {
  it("answers 200 after writing one job row, then stores the message, opens the window", async () => {
    const at = Math.floor(Date.now() / 1000) - 60;
    const payload = P.text("Hola desde la API oficial", { from: "5215500000201", name: "Lucía", timestamp: at }, business());
    const wamid = (payload.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
    const before = (await webhookJobs()).length;
    const res = await post(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    const rows = await webhookJobs();
    expect(rows).toHaveLength(before + 1);
    await settled();
    const [msg] = await stored(wamid);
    expect(msg).toMatchObject({ body: "Hola desde la API oficial", fromMe: false, mediaType: "chat" });
    expect(msg.createdAt.getTime()).toBe(at * 1000);
    expect(await windowOf("5215500000201")).toEqual(new Date(at * 1000));
  });

  it("an identical replay is a no-op: 200, no second row, the message once", async () => {
    const payload = P.text("una vez", { from: "5215500000301" }, business());
    const wamid = (payload.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
    const raw = JSON.stringify(payload);
    expect((await post(raw)).json()).toEqual({ received: true });
    const count = (await webhookJobs()).length;
    const replay = await post(raw);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await webhookJobs()).toHaveLength(count);
    await settled();
    expect(await stored(wamid)).toHaveLength(1);
  });

  it("the same wamid in another body (Meta re-batching it) is stored once, the ticket's unread count once", async () => {
    const single = P.text("dedup por wamid", { from: "5215500000401" }, business());
    const wamid = (single.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
    const batched = P.batchPayload([single, P.text("otro", { from: "5215500000402" }, business())], business());
    // both at once, as two deliveries racing on two connections of the pool
    const [a, b] = await Promise.all([post(single), post(batched)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    await settled();
    const rows = await stored(wamid);
    expect(rows).toHaveLength(1);
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, rows[0].ticketId));
    expect(ticket.unreadMessages).toBe(1);
  });

  it("two runs of bodies holding the same wamids at once (two nodes, a crash's rerun) store each message once, its file once", async () => {
    fake.addMedia("90002", Buffer.from("jpeg"), "image/jpeg");
    const img = P.image("90002", "foto", { from: "5215500000451" }, business());
    const txt = P.text("texto", { from: "5215500000451" }, business());
    const ids = [img, txt].map((p) => (p.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id);
    const bodies = [
      JSON.stringify(P.batchPayload([img, txt], business())),
      JSON.stringify(P.batchPayload([txt, img], business())),
    ];
    // past the route's per-connection lane: the job's processing itself, side by side
    await Promise.all([...bodies, ...bodies].map((body) => processCloudWebhook(app.charla, companyId, conn.id, body)));
    for (const id of ids) expect(await stored(id)).toHaveLength(1);
    const [withFile] = await stored(ids[0]);
    expect(await app.charla.storage.head(companyId, withFile.mediaPath ?? "", 10)).toEqual(Buffer.from("jpeg"));
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, withFile.ticketId));
    expect(ticket.unreadMessages).toBe(2);
  });

  it("downloads media from the Graph API and stores the file", async () => {
    const bytes = Buffer.from("%PDF-1.4 contrato");
    fake.addMedia("90001", bytes, "application/pdf");
    const payload = P.document("90001", "Contrato.pdf", "Te lo firmo", { from: "5215500000501" }, business());
    const wamid = (payload.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
    expect((await post(payload)).statusCode).toBe(200);
    await settled();
    const [msg] = await stored(wamid);
    expect(msg).toMatchObject({ mediaType: "application", body: "Te lo firmo", mediaName: "Contrato.pdf" });
    expect(msg.mediaPath).toBeTruthy();
    expect(await app.charla.storage.head(companyId, msg.mediaPath ?? "", 100)).toEqual(bytes);
    expect(fake.requests.some((r) => r.path.endsWith("/90001") && r.authorization === `Bearer ${fake.accessToken}`)).toBe(true);
  });

  it("statuses raise the acks of sent messages; a failure lands with Meta's reason", async () => {
    const contact = await buildContact(app, companyId, { number: "5215500000601" });
    const ticket = await buildTicket(app, companyId, { contactId: contact.id, whatsappId: conn.id });
    const delivered = await buildMessage(app, ticket, { fromMe: true, ack: Ack.server, channelId: P.wamid() });
    const failed = await buildMessage(app, ticket, { fromMe: true, ack: Ack.server, channelId: P.wamid() });
    const res = await post(
      P.batchPayload(
        [
          P.status(delivered.channelId ?? "", "delivered", { recipient: contact.number }),
          P.status(failed.channelId ?? "", "failed", { recipient: contact.number, code: 131047, title: "Re-engagement message" }),
        ],
        business(),
      ),
    );
    expect(res.statusCode).toBe(200);
    await settled();
    const byId = async (id: number) => (await db().select().from(messages).where(eq(messages.id, id)))[0];
    await expect.poll(async () => (await byId(delivered.id)).ack).toBe(Ack.delivered);
    expect(await byId(failed.id)).toMatchObject({ ack: Ack.failed, ackError: "ERR_CLOUD_REENGAGEMENT" });
    // read after delivered: up; a late "sent" never takes it back
    await post(P.status(delivered.channelId ?? "", "read", {}, business()));
    await post(P.status(delivered.channelId ?? "", "sent", { timestamp: 1 }, business()));
    await settled();
    await expect.poll(async () => (await byId(delivered.id)).ack).toBe(Ack.read);
  });
});

describe("a status ahead of its message", () => {
  it("is handed over again by the job until the send's answer gave the message its wamid, then lands", async () => {
    const contact = await buildContact(app, companyId, { number: "5215500000651" });
    const ticket = await buildTicket(app, companyId, { contactId: contact.id, whatsappId: conn.id });
    // the send is recorded under Charla's own id; Meta's wamid is written when its answer is stored
    const row = await buildMessage(app, ticket, { fromMe: true, ack: Ack.pending, channelId: "3EB0AHEAD" });
    const wamid = P.wamid();
    const res = await post(P.status(wamid, "failed", { recipient: contact.number, code: 131026 }, business()));
    expect(res.statusCode).toBe(200);
    await expect
      .poll(async () => (await webhookJobs()).find((j) => JSON.stringify(j.payload).includes(wamid))?.attempts ?? 0, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(1);
    const job = (await webhookJobs()).find((j) => JSON.stringify(j.payload).includes(wamid));
    expect(job?.state).toBe("pending");
    expect(job?.lastError).toContain("ahead of their messages");
    await db().update(messages).set({ channelId: wamid }).where(eq(messages.id, row.id));
    await expect
      .poll(async () => (await db().select().from(messages).where(eq(messages.id, row.id)))[0], { timeout: 30_000 })
      .toMatchObject({ ack: Ack.failed, ackError: "ERR_CLOUD_UNDELIVERABLE" });
    // and the job ends at its next run (a round would take it after its backoff): the status found its message
    expect(await runJobNow(app.charla, [cloudWebhookJob], job?.id ?? 0)).toBe(true);
    expect((await webhookJobs()).find((j) => j.id === job?.id)?.state).toBe("done");
  });
});

describe("the customer's window", () => {
  it("moves only forward (an older message replayed late never closes it) and never beyond now", async () => {
    const number = "5215500000701";
    const now = Math.floor(Date.now() / 1000);
    await post(P.text("reciente", { from: number, timestamp: now - 100 }, business()));
    await settled();
    await post(P.text("viejo, llegó tarde", { from: number, timestamp: now - 20 * 3600 }, business()));
    await settled();
    expect(await windowOf(number)).toEqual(new Date((now - 100) * 1000));
    // a time ahead of ours counts as the moment it was heard of
    const future = await post(P.text("del futuro", { from: number, timestamp: now + 10 * 86_400 }, business()));
    expect(future.statusCode).toBe(200);
    await settled();
    const opened = await windowOf(number);
    expect(opened?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(opened?.getTime()).toBeGreaterThanOrEqual((now - 100) * 1000);
  });

  it("statuses and system notices open no window; a reaction does", async () => {
    await post(P.system("5215500009999", { from: "5215500000801" }, business()));
    // a status of a message Charla never sent (older than a send's answer can be late)
    await post(
      P.status(
        P.wamid(),
        "delivered",
        { recipient: "5215500000802", timestamp: Math.floor(Date.now() / 1000) - 600 },
        business(),
      ),
    );
    await post(P.reaction("wamid.X", "❤️", { from: "5215500000803" }, business()));
    await settled();
    expect(await windowOf("5215500000801")).toBeNull();
    expect(await windowOf("5215500000802")).toBeNull();
    expect(await windowOf("5215500000803")).not.toBeNull();
  });
});

describe("one Meta app, several numbers", () => {
  it("an event for another number of the company goes to that connection; one for no connection is left", async () => {
    const other = await startFakeGraph();
    try {
      const second = await cloudConnection(app, companyId, other);
      const payload = P.text("al otro número", { from: "5215500000901" }, { phoneNumberId: other.phoneNumberId });
      const wamid = (payload.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
      // posted to the first connection's URL, signed with its secret (the app's)
      expect((await post(payload)).statusCode).toBe(200);
      await settled();
      expect(await stored(wamid, conn.id)).toEqual([]);
      expect(await stored(wamid, second.id)).toHaveLength(1);
      expect(await windowOf("5215500000901", second.id)).not.toBeNull();

      const stray = P.text("a nadie", { from: "5215500000902" }, { phoneNumberId: "999999999999999" });
      const strayId = (stray.entry[0].changes[0].value as { messages: { id: string }[] }).messages[0].id;
      expect((await post(stray)).statusCode).toBe(200);
      await settled();
      const anywhere = await db()
        .select()
        .from(messages)
        .where(and(eq(messages.companyId, companyId), eq(messages.channelId, strayId)));
      expect(anywhere).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
