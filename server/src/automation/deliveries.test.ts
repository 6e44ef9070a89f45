import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { IntegrationView, WebhookBody } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrationDeliveries, jobs, messages, queueOptions, tickets } from "../db/schema/index.js";
import { deliverWebhookJob, WEBHOOK_MAX_ATTEMPTS } from "../jobs/durable/deliver-webhook.js";
import { runJobNow } from "../jobs/durable/run.js";
import { getIsolatedTestApp, type TestApp } from "../test/app.js";
import { botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { buildMessage } from "../test/factories.js";
import { caller, uid } from "../test/http.js";
import {
  catchUpDeliveries,
  DELIVERY_LOG_DAYS,
  DELIVERY_OWED_AFTER_SEC,
  deliveryIntegrationOf,
  messageWebhookId,
} from "./deliveries.js";

type Received = { headers: IncomingHttpHeaders; body: string };
type Answer = number | "hang";

/** A webhook receiver on 127.0.0.1: answers what it is told (200 once the list is spent), records each request. */
async function receiver() {
  const got: Received[] = [];
  const answers: Answer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const a = answers.shift() ?? 200;
      if (a === "hang") return;
      res.writeHead(a, { "content-type": "text/plain" }).end(a >= 300 ? "se cayó el receptor" : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    got,
    answers,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let t: TestApp;
let rx: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
  // a short time-out, so a receiver that never answers costs the test little
  // long enough that a receiver answering at once is never taken for a hung one on a busy machine;
  // the hang test waits it out once
  t = await getIsolatedTestApp({ webhookTimeoutMs: 3000, integrationsAllowPrivate: true });
  rx = await receiver();
});
afterAll(async () => {
  await t.close();
  await rx.close();
});
const call = caller(() => t.app);

/** Polls until `check` gives a value (no fixed sleeps). */
async function until<T>(check: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const deliveriesOf = (integrationId: number) =>
  t.app.charla.db
    .select()
    .from(integrationDeliveries)
    .where(eq(integrationDeliveries.integrationId, integrationId))
    .orderBy(integrationDeliveries.id);
const jobOf = async (companyId: number, webhookId: string) =>
  (
    await t.app.charla.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.companyId, companyId), eq(jobs.kind, deliverWebhookJob.kind), eq(jobs.idempotencyKey, webhookId)))
  )[0];

/** A company on a plan with integrations, its simulator connection pointing at a webhook integration (no areas). */
async function hooked(type: "webhook" | "n8n" = "webhook", useIntegrations = true) {
  const w = await botCompany(t, {}, { plan: { useIntegrations: true } });
  const res = await call(w.session, "POST", "/queueIntegration", { type, name: `Hook ${uid()}`, urlN8N: rx.url });
  expect(res.statusCode, res.body).toBe(201);
  const integration = res.json() as IntegrationView;
  await call(w.session, "GET", "/queueIntegration");
  const { whatsapps, plans, companies } = await import("../db/schema/index.js");
  await t.app.charla.db.update(whatsapps).set({ integrationId: integration.id }).where(eq(whatsapps.id, w.whatsappId));
  if (!useIntegrations) {
    const [c] = await t.app.charla.db.select().from(companies).where(eq(companies.id, w.companyId));
    await t.app.charla.db.update(plans).set({ useIntegrations: false }).where(eq(plans.id, c.planId));
  }
  return { w, integration };
}
const requestsFor = (webhookId: string) => rx.got.filter((r) => r.headers["webhook-id"] === webhookId);

describe("webhook deliveries", () => {
  it("each received message is POSTed signed (Standard Webhooks), with secret-key and the last 5 messages", async () => {
    const { w, integration } = await hooked();
    const ana = phone(t, w, "Ana Webhook");
    let ticketId = 0;
    let seen: string[] = [];
    for (const body of ["hola", "quiero", "un", "pedido", "de", "tacos"]) ticketId = await ana.say(body);
    const delivered = await until(async () => {
      const rows = await deliveriesOf(integration.id);
      seen = rows.map((r) => `${r.status}/${r.attempts}/${r.lastError}`);
      return rows.length === 6 && rows.every((r) => r.status === "delivered") && rows;
    }, "six deliveries").catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(seen)}`);
    });
    const last = delivered[5];
    expect(last).toMatchObject({ event: "message", ticketId, attempts: 1, lastStatus: 200, lastError: "" });
    expect(last.webhookId).toBe(messageWebhookId(w.companyId, last.messageId as number, integration.id));

    const [req] = requestsFor(last.webhookId);
    expect(req.headers["secret-key"]).toBe(integration.apikey);
    expect(req.headers["content-type"]).toBe("application/json");
    // the receiver's own check, with the Standard Webhooks library
    const verified = new Webhook(integration.apikey).verify(req.body, req.headers as Record<string, string>) as WebhookBody;
    expect(verified.eventintegration).toBe("message");
    expect(verified.ticket).toMatchObject({ id: ticketId, whatsappId: w.whatsappId });
    expect(verified.userData).toMatchObject({ name: "Ana Webhook", number: ana.number, email: "" });
    // the ticket's last 5 messages (the bot's answers included), oldest first, ending with this one
    const ticketMessages = await t.app.charla.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.companyId, w.companyId)))
      .orderBy(messages.createdAt, messages.id);
    const upTo = ticketMessages.slice(0, ticketMessages.findIndex((m) => m.id === last.messageId) + 1).slice(-5);
    expect(verified.msg.map((m) => m.id)).toEqual(upTo.map((m) => m.id));
    expect(verified.msg.at(-1)).toMatchObject({ id: last.messageId, message: "tacos", userMessage: "tacos", fromMe: false });
    for (const m of verified.msg.filter((x) => x.fromMe)) expect(m.userMessage).toBe("");
    // a forged body does not verify
    expect(() =>
      new Webhook(integration.apikey).verify(req.body.replace("tacos", "gratis"), req.headers as Record<string, string>),
    ).toThrow();

    // the admin's log
    const log = await call(w.session, "GET", `/queueIntegration/${integration.id}/deliveries`);
    expect(log.json().deliveries).toHaveLength(6);
    expect(log.json().deliveries[0]).toMatchObject({ id: last.id, status: "delivered", attempts: 1, lastStatus: 200 });
    const listed = await call(w.session, "GET", `/queueIntegration/${integration.id}`);
    expect(listed.json().lastDelivery).toMatchObject({ id: last.id, status: "delivered" });
  });

  it("retries with backoff after 500s and time-outs, under the same webhook-id, then delivers", async () => {
    const { w, integration } = await hooked("n8n");
    rx.answers.push(500, "hang");
    const ticketId = await phone(t, w).say("¿tienen envío?");
    const [row] = await until(async () => {
      const rows = await deliveriesOf(integration.id);
      const job = rows.length === 1 && rows[0].attempts === 1 && (await jobOf(rows[0].companyId, rows[0].webhookId));
      return job && job.state === "pending" && rows;
    }, "first attempt");
    expect(row).toMatchObject({ status: "retrying", attempts: 1, lastStatus: 500, ticketId });
    expect(row.lastError).toContain("HTTP 500");
    let job = await jobOf(w.companyId, row.webhookId);
    expect(job).toMatchObject({ state: "pending", attempts: 1 });
    const wait1 = (job.runAfter.getTime() - (row.lastAttemptAt as Date).getTime()) / 1000;
    expect(wait1).toBeGreaterThanOrEqual(9);
    expect(wait1).toBeLessThanOrEqual(11);

    // the runner's next run (not waiting the real backoff): the receiver hangs past the time-out
    expect(await runJobNow(t.app.charla, [deliverWebhookJob], job.id)).toBe(true);
    let [again] = await deliveriesOf(integration.id);
    expect(again).toMatchObject({ status: "retrying", attempts: 2, lastStatus: null });
    expect(again.lastError).toContain("ERR_WEBHOOK_TIMEOUT");
    job = await jobOf(w.companyId, row.webhookId);
    const wait2 = (job.runAfter.getTime() - (again.lastAttemptAt as Date).getTime()) / 1000;
    expect(wait2).toBeGreaterThanOrEqual(19);
    expect(wait2).toBeLessThanOrEqual(21);

    expect(await runJobNow(t.app.charla, [deliverWebhookJob], job.id)).toBe(true);
    [again] = await deliveriesOf(integration.id);
    expect(again).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 200, lastError: "" });
    expect((await jobOf(w.companyId, row.webhookId)).state).toBe("done");
    const sent = requestsFor(row.webhookId);
    expect(sent).toHaveLength(3);
    // the same id and bytes each time; each attempt signed at its own time and verifiable
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    for (const r of sent) {
      expect(r.headers["webhook-id"]).toBe(row.webhookId);
      expect(() => new Webhook(integration.apikey).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
  });

  it("is dead after the last attempt, and the log says why", async () => {
    const { w, integration } = await hooked();
    rx.answers.push(503);
    await phone(t, w).say("hola");
    const [row] = await until(async () => {
      const rows = await deliveriesOf(integration.id);
      const job = rows.length === 1 && rows[0].attempts === 1 && (await jobOf(rows[0].companyId, rows[0].webhookId));
      return job && job.state === "pending" && rows;
    }, "first attempt");
    // the attempts before the last spent
    const job = await jobOf(w.companyId, row.webhookId);
    await t.app.charla.db
      .update(jobs)
      .set({ attempts: WEBHOOK_MAX_ATTEMPTS - 1 })
      .where(eq(jobs.id, job.id));
    rx.answers.push(502);
    expect(await runJobNow(t.app.charla, [deliverWebhookJob], job.id)).toBe(true);
    const [dead] = await deliveriesOf(integration.id);
    expect(dead).toMatchObject({ status: "dead", attempts: WEBHOOK_MAX_ATTEMPTS, lastStatus: 502 });
    expect(dead.lastError).toContain("HTTP 502");
    expect((await jobOf(w.companyId, row.webhookId)).state).toBe("dead");
    const log = await call(w.session, "GET", `/queueIntegration/${integration.id}/deliveries`);
    expect(log.json().deliveries[0]).toMatchObject({ status: "dead", attempts: WEBHOOK_MAX_ATTEMPTS, lastStatus: 502 });
  });

  it("a delivery whose job died with its runner (lease lapsed at the last attempt) is marked dead by the sweep", async () => {
    const { w, integration } = await hooked();
    rx.answers.push(500);
    await phone(t, w).say("hola");
    const [row] = await until(async () => {
      const rows = await deliveriesOf(integration.id);
      const job = rows.length === 1 && rows[0].attempts === 1 && (await jobOf(rows[0].companyId, rows[0].webhookId));
      return job && job.state === "pending" && rows;
    }, "first attempt");
    await t.app.charla.db.update(jobs).set({ state: "dead" }).where(eq(jobs.idempotencyKey, row.webhookId));
    await catchUpDeliveries(t.app.charla, new Date(), 50, { companyId: w.companyId });
    expect((await deliveriesOf(integration.id))[0].status).toBe("dead");
  });

  it("the catch-up sweep writes the deliveries a crash lost, once", async () => {
    const { w, integration } = await hooked();
    const ticketId = await phone(t, w, "Beto").say("primero");
    await until(async () => (await deliveriesOf(integration.id)).length === 1, "live delivery");
    // a message stored with no listener behind it (the process died after its commit)
    const [ticket] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, ticketId));
    const lost = await buildMessage(t.app, ticket, { body: "perdido", fromMe: false });
    await t.app.charla.db.update(tickets).set({ updatedAt: new Date() }).where(eq(tickets.id, ticketId));
    const mine = { companyId: w.companyId };
    // too recent still: the live listener may be on it
    expect(await catchUpDeliveries(t.app.charla, new Date(), 50, mine)).toBe(0);
    const later = new Date(Date.now() + (DELIVERY_OWED_AFTER_SEC + 1) * 1000);
    expect(await catchUpDeliveries(t.app.charla, later, 50, mine)).toBe(1);
    expect(await catchUpDeliveries(t.app.charla, later, 50, mine)).toBe(0);
    const rows = await deliveriesOf(integration.id);
    expect(rows).toHaveLength(2);
    const owed = rows.find((r) => r.messageId === lost.id);
    expect(owed).toMatchObject({ status: "pending", webhookId: messageWebhookId(w.companyId, lost.id, integration.id) });
    const job = await jobOf(w.companyId, owed?.webhookId as string);
    expect(await runJobNow(t.app.charla, [deliverWebhookJob], job.id)).toBe(true);
    const [req] = requestsFor(owed?.webhookId as string);
    const body = new Webhook(integration.apikey).verify(req.body, req.headers as Record<string, string>) as WebhookBody;
    expect(body.msg.at(-1)).toMatchObject({ id: lost.id, message: "perdido" });
    // an hour later it is no longer owed
    const stale = await buildMessage(t.app, ticket, { body: "viejo", fromMe: false });
    await t.app.charla.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(messages.id, stale.id));
    expect(await catchUpDeliveries(t.app.charla, later, 50, mine)).toBe(0);
  });

  it("nothing for the company's own messages, nor without the plan flag", async () => {
    const { w, integration } = await hooked();
    const ticketId = await phone(t, w).say("hola");
    await until(async () => (await deliveriesOf(integration.id)).length === 1, "the customer's delivery");
    const [ticket] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, ticketId));
    await buildMessage(t.app, ticket, { body: "respuesta", fromMe: true });
    const later = new Date(Date.now() + (DELIVERY_OWED_AFTER_SEC + 1) * 1000);
    expect(await catchUpDeliveries(t.app.charla, later, 50, { companyId: w.companyId })).toBe(0);
    expect(await deliveriesOf(integration.id)).toHaveLength(1);

    const off = await hooked("webhook", false);
    const offTicket = await phone(t, off.w).say("hola");
    const [offRow] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, offTicket));
    await buildMessage(t.app, offRow, { body: "otro", fromMe: false });
    expect(await catchUpDeliveries(t.app.charla, later, 50, { companyId: off.w.companyId })).toBe(0);
    expect(await deliveriesOf(off.integration.id)).toHaveLength(0);
  });

  it("the ticket's integration: its option node's, else its area's, else (no area) its connection's", async () => {
    const { w, integration: onConnection } = await hooked();
    const mk = async (name: string, type = "webhook") =>
      (
        await call(w.session, "POST", "/queueIntegration", { type, name, urlN8N: rx.url, typebotSlug: "s" })
      ).json() as IntegrationView;
    const onArea = await mk(`Area ${uid()}`);
    const onOption = await mk(`Option ${uid()}`);
    const typebot = await mk(`Bot ${uid()}`, "typebot");
    const queue = await linkQueue(t, w, { name: `Ventas ${uid()}`, integrationId: onArea.id });
    const [option] = await t.app.charla.db
      .insert(queueOptions)
      .values({ companyId: w.companyId, queueId: queue.id, title: "Pedidos", option: "1", qIntegrationId: onOption.id })
      .returning();
    const ticketId = await phone(t, w).say("hola");
    const set = (values: Partial<typeof tickets.$inferInsert>) =>
      t.app.charla.db.update(tickets).set(values).where(eq(tickets.id, ticketId));
    const of = () => deliveryIntegrationOf(t.app.charla, w.companyId, ticketId);
    await set({ queueId: null, queueOptionId: null });
    expect(await of()).toBe(onConnection.id);
    await set({ queueId: queue.id });
    expect(await of()).toBe(onArea.id);
    await set({ queueOptionId: option.id });
    expect(await of()).toBe(onOption.id);
    // a ticket a typebot is talking to is the typebot's: no delivery
    await set({ useIntegration: true, integrationId: typebot.id });
    expect(await of()).toBeNull();
    // another company's ticket is nobody's here
    expect(await deliveryIntegrationOf(t.app.charla, w.companyId + 100_000, ticketId)).toBeNull();
  });

  it("the page's test event is delivered signed, and the log shows it", async () => {
    const { w, integration } = await hooked();
    const res = await call(w.session, "POST", `/queueIntegration/${integration.id}/test`);
    expect(res.statusCode).toBe(201);
    const id = res.json().webhookId as string;
    const row = await until(async () => {
      const [r] = (await deliveriesOf(integration.id)).filter((d) => d.webhookId === id && d.status === "delivered");
      return r;
    }, "test delivery");
    expect(row).toMatchObject({ event: "test", attempts: 1, lastStatus: 200 });
    const [req] = requestsFor(id);
    const body = new Webhook(integration.apikey).verify(req.body, req.headers as Record<string, string>);
    expect(body).toEqual({ msg: [], eventintegration: "test", ticket: null, userData: null });
  });

  it("the log keeps a month: older finished deliveries go, those still being tried stay", async () => {
    const { w, integration } = await hooked();
    const now = new Date();
    const old = new Date(now.getTime() - (DELIVERY_LOG_DAYS + 1) * 86_400_000);
    const recent = new Date(now.getTime() - (DELIVERY_LOG_DAYS - 1) * 86_400_000);
    const row = (status: "delivered" | "dead" | "retrying", createdAt: Date) => ({
      companyId: w.companyId,
      integrationId: integration.id,
      webhookId: `msg_prune_${uid()}`,
      event: "test",
      payload: {},
      status,
      createdAt,
    });
    await t.app.charla.db
      .insert(integrationDeliveries)
      .values([row("delivered", old), row("dead", old), row("retrying", old), row("delivered", recent)]);
    await catchUpDeliveries(t.app.charla, now, 50, { companyId: w.companyId });
    const left = await deliveriesOf(integration.id);
    expect(left.map((d) => [d.status, d.createdAt.getTime()]).sort()).toEqual(
      [
        ["retrying", old.getTime()],
        ["delivered", recent.getTime()],
      ].sort(),
    );
  });
});
