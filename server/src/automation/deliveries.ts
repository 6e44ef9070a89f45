import { DeliveryTypes, WEBHOOK_LAST_MESSAGES, type WebhookBody } from "@charla/contracts";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Services } from "../context.js";
import type { Tx } from "../db/client.js";
import { scoped } from "../db/scoped.js";
import { contacts, integrationDeliveries, messages, tickets } from "../db/schema/index.js";
import { deliverWebhookJob } from "../jobs/durable/deliver-webhook.js";
import { enqueue } from "../jobs/durable/enqueue.js";
import { runJobNow } from "../jobs/durable/run.js";
import { type OnlyCompany, type OwedBounds, owedSweep } from "../jobs/owed-sweep.js";
import type { Sweep } from "../jobs/sweep.js";
import { type MemoryCache, memoryCache } from "../lib/memory-cache.js";
import { rowsOf } from "../lib/rate-limit.js";

/**
 * Webhook and n8n integrations (secondary §3, issue 30): each message a customer sends to a ticket whose
 * integration is one of them becomes a delivery row and its `integration.deliver` job, written in one
 * transaction; the job sends it (jobs/durable/deliver-webhook.ts). The inbound path stores messages
 * through a batched statement no one can join, so the row is written right after the message's commit
 * (`message.received`), and a sweep writes those a crash lost in between. Both write under the same
 * deterministic `webhook-id`, so the message gets one delivery whoever writes it.
 */

/** How long after its message a delivery counts as lost (the listener writes it within a second or two). */
export const DELIVERY_OWED_AFTER_SEC = 15;
/** Messages older than this are not delivered late: the sweep looks back one hour. */
export const DELIVERY_STALE_AFTER_SEC = 3600;
/** How long a company's "has delivery integrations" answer is trusted without a change seen here. */
const HAS_DELIVERIES_TTL_MS = 30_000;

const deliveryTypes = sql.join(
  DeliveryTypes.map((t) => sql`${t}`),
  sql`, `,
);

/** The `webhook-id` of a received message's delivery to an integration: the same whoever writes it. */
export const messageWebhookId = (companyId: number, messageId: number, integrationId: number) =>
  `msg_${companyId}_${messageId}_${integrationId}`;

/** Per app (tests run several in one process). */
const caches = new WeakMap<Services, MemoryCache>();
const cacheOf = (s: Services) => {
  let c = caches.get(s);
  if (!c) {
    c = memoryCache(HAS_DELIVERIES_TTL_MS, 10_000);
    caches.set(s, c);
  }
  return c;
};

/** A company's integrations changed (created, edited, deleted): its next message asks again. */
export function forgetDeliveryIntegrations(s: Services, companyId: number): void {
  cacheOf(s).del(String(companyId));
}

/**
 * Whether the company may have deliveries at all: a webhook or n8n integration, and a plan with
 * integrations. Cached per company, so a company without them costs one lookup per TTL, not per message.
 */
export async function hasDeliveryIntegrations(s: Services, companyId: number): Promise<boolean> {
  const cache = cacheOf(s);
  const hit = cache.get<boolean>(String(companyId));
  if (hit !== undefined) return hit;
  const result = await s.db.execute(sql`
    select exists (
      select 1 from queue_integrations qi
        join companies c on c.id = qi.company_id
        join plans p on p.id = c.plan_id and p.use_integrations
       where qi.company_id = ${companyId} and qi.type in (${deliveryTypes})
    ) as "has"`);
  const has = Boolean(rowsOf<{ has: boolean }>(result)[0]?.has);
  cache.set(String(companyId), has);
  return has;
}

/**
 * The integration id a ticket's received messages are delivered to, or null: the one the ticket holds
 * (an automation talking to it), else its option node's, else its area's, else (no area yet) its
 * connection's — when that one is a webhook or n8n integration.
 */
const effectiveIntegration = sql`coalesce(
  case when t.use_integration then t.integration_id end,
  (select o.q_integration_id from queue_options o where o.company_id = t.company_id and o.id = t.queue_option_id),
  (select qu.integration_id from queues qu where qu.company_id = t.company_id and qu.id = t.queue_id),
  case when t.queue_id is null then
    (select w.integration_id from whatsapps w where w.company_id = t.company_id and w.id = t.whatsapp_id) end)`;

export async function deliveryIntegrationOf(
  s: Services | { db: Services["db"] },
  companyId: number,
  ticketId: number,
): Promise<number | null> {
  const result = await s.db.execute(sql`
    select qi.id from tickets t
      join queue_integrations qi on qi.company_id = t.company_id and qi.id = ${effectiveIntegration}
     where t.company_id = ${companyId} and t.id = ${ticketId} and qi.type in (${deliveryTypes})`);
  const row = rowsOf<{ id: number }>(result)[0];
  return row ? Number(row.id) : null;
}

/** The spec's body for a received message: the ticket's last 5 messages up to it, the ticket, the contact. */
export async function messageBody(tx: Tx, companyId: number, ticketId: number, messageId: number): Promise<WebhookBody | null> {
  const q = scoped(tx, companyId);
  const [ticket] = await tx
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      queueId: tickets.queueId,
      whatsappId: tickets.whatsappId,
      contactId: tickets.contactId,
    })
    .from(tickets)
    .where(q.tickets.where(eq(tickets.id, ticketId)));
  const message = await q.messages.findById(messageId);
  if (!ticket || !message || message.ticketId !== ticketId) return null;
  // up to this message in the ticket's order (compared in the database: its times are finer than a JS Date)
  const last = await tx
    .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe, updatedAt: messages.updatedAt })
    .from(messages)
    .where(
      q.messages.where(
        and(
          eq(messages.ticketId, ticketId),
          sql`(${messages.createdAt}, ${messages.id}) <= (select m0.created_at, m0.id from messages m0 where m0.company_id = ${companyId} and m0.id = ${messageId})`,
        ),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(WEBHOOK_LAST_MESSAGES);
  const [contact] = ticket.contactId
    ? await tx
        .select({ name: contacts.name, number: contacts.number, email: contacts.email })
        .from(contacts)
        .where(q.contacts.where(eq(contacts.id, ticket.contactId)))
    : [];
  return {
    msg: last.reverse().map((m) => ({
      userMessage: m.fromMe ? "" : m.body,
      message: m.body,
      updateAt: m.updatedAt.toISOString(),
      fromMe: m.fromMe,
      id: m.id,
    })),
    eventintegration: "message",
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId, whatsappId: ticket.whatsappId },
    userData: contact ? { name: contact.name, number: contact.number, email: contact.email } : null,
  };
}

export type NewDelivery = {
  integrationId: number;
  webhookId: string;
  event: "message" | "test";
  payload: WebhookBody;
  ticketId?: number | null;
  messageId?: number | null;
};

/**
 * A delivery and its job, in the caller's transaction; nothing when its `webhookId` was written
 * already. Returns the job's id to run at once after the commit, or null.
 */
export async function writeDelivery(
  tx: Tx,
  companyId: number,
  d: NewDelivery,
): Promise<{ deliveryId: number; jobId: number | null } | null> {
  const [row] = await tx
    .insert(integrationDeliveries)
    .values({
      companyId,
      integrationId: d.integrationId,
      webhookId: d.webhookId,
      event: d.event,
      payload: d.payload,
      ticketId: d.ticketId ?? null,
      messageId: d.messageId ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: integrationDeliveries.id });
  if (!row) return null;
  const jobId = await enqueue(tx, companyId, deliverWebhookJob, { deliveryId: row.id }, { idempotencyKey: d.webhookId });
  return { deliveryId: row.id, jobId };
}

/** A received message's delivery (listener and sweep alike); the job's id when this call wrote it. */
export async function deliverReceived(
  s: Services,
  companyId: number,
  ticketId: number,
  messageId: number,
): Promise<number | null> {
  const integrationId = await deliveryIntegrationOf(s, companyId, ticketId);
  if (integrationId === null) return null;
  const written = await s.db.transaction(async (tx) => {
    const payload = await messageBody(tx, companyId, ticketId, messageId);
    if (!payload) return null;
    return writeDelivery(tx, companyId, {
      integrationId,
      webhookId: messageWebhookId(companyId, messageId, integrationId),
      event: "message",
      payload,
      ticketId,
      messageId,
    });
  });
  return written?.jobId ?? null;
}

/** Runs a delivery's job on this node right away (a round of the runner would take it otherwise). */
export async function sendNow(s: Services, jobId: number): Promise<void> {
  await runJobNow(s, [deliverWebhookJob], jobId);
}

/** The live path: after each received message's commit, off the inbound path, one ticket at a time. */
export function registerIntegrationDeliveries(s: Services): void {
  s.events.on(
    "message.received",
    { id: "automation.deliveries", phase: "detached", lane: (e) => `${e.companyId}:${e.ticketId}` },
    async (e) => {
      if (e.msg.fromMe) return;
      if (!(await hasDeliveryIntegrations(s, e.companyId))) return;
      const jobId = await deliverReceived(s, e.companyId, e.ticketId, e.messageId);
      if (jobId !== null) await sendNow(s, jobId);
    },
  );
}

type Owed = { companyId: number; ticketId: number; messageId: number };

/**
 * Received messages within the window on tickets whose integration is a webhook or n8n one, with no
 * delivery to it yet: the listener's work lost with its process. Only companies whose plan has
 * integrations and that have such an integration are looked at; their tickets by the recently-updated
 * index (a received message moves updatedAt), each one's messages by the ticket's index.
 */
async function findOwed(s: Services, { since, owedBefore }: OwedBounds, limit: number, only?: OnlyCompany): Promise<Owed[]> {
  const result = await s.db.execute(sql`
    select t.company_id as "companyId", t.id as "ticketId", m.id as "messageId"
      from companies c
      join plans p on p.id = c.plan_id and p.use_integrations
      join tickets t on t.company_id = c.id and t.updated_at >= ${since}::timestamptz
      join queue_integrations qi on qi.company_id = t.company_id and qi.id = ${effectiveIntegration}
      cross join lateral (
        select m.id, m.created_at from messages m
         where m.company_id = t.company_id and m.ticket_id = t.id and not m.from_me
           and m.created_at >= ${since}::timestamptz and m.created_at <= ${owedBefore}::timestamptz
         order by m.created_at desc, m.id desc limit 100
      ) m
     where ${only ? sql`c.id = ${only.companyId}` : sql`true`}
       and exists (select 1 from queue_integrations x where x.company_id = c.id and x.type in (${deliveryTypes}))
       and qi.type in (${deliveryTypes})
       and not exists (
         select 1 from integration_deliveries d
          where d.webhook_id = 'msg_' || t.company_id || '_' || m.id || '_' || qi.id)
     order by m.created_at, m.id
     limit ${limit}`);
  return rowsOf<Owed>(result).map((r) => ({
    companyId: Number(r.companyId),
    ticketId: Number(r.ticketId),
    messageId: Number(r.messageId),
  }));
}

/**
 * Deliveries whose job died without its handler saying so (the process died during the last attempt,
 * and the runner found the lease lapsed with no attempt left): their rows are marked dead too. Driven
 * from the deliveries still being tried (a partial index), never from the history of dead jobs.
 */
async function settleDeadJobs(s: Services, only?: OnlyCompany): Promise<number> {
  const result = await s.db.execute(sql`
    update integration_deliveries d set status = 'dead', updated_at = now()
      from jobs j
     where d.status in ('pending', 'retrying') ${only ? sql`and d.company_id = ${only.companyId}` : sql``}
       and j.company_id = d.company_id and j.kind = ${deliverWebhookJob.kind} and j.idempotency_key = d.webhook_id
       and j.state = 'dead'
    returning d.id`);
  return rowsOf<{ id: number }>(result).length;
}

/** How long a finished delivery (delivered or dead) stays in its integration's log. */
export const DELIVERY_LOG_DAYS = 30;
const PRUNE_BATCH = 1000;

/**
 * The log keeps a month: older finished deliveries go, a bounded batch a round, oldest first (the
 * primary key's order is the order they were written in).
 */
async function pruneDeliveries(s: Services, now: Date, only?: OnlyCompany): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_LOG_DAYS * 86_400_000);
  const result = await s.db.execute(sql`
    delete from integration_deliveries where id in (
      select id from integration_deliveries
       where created_at < ${cutoff} and status in ('delivered', 'dead')
         ${only ? sql`and company_id = ${only.companyId}` : sql``}
       order by id limit ${PRUNE_BATCH})
    returning id`);
  return rowsOf<{ id: number }>(result).length;
}

/**
 * The catch-up, a sweep of the runner every 10 s: owed deliveries written (their jobs go with the
 * runner's next round), so one lost by a crash is written at most ~25 s after its message; then the
 * log's housekeeping (deliveries whose job died, the month kept).
 */
const catchUp = owedSweep<Owed>({
  name: "integration-deliveries",
  everyMs: 10_000,
  window: { owedAfterSec: DELIVERY_OWED_AFTER_SEC, staleAfterSec: DELIVERY_STALE_AFTER_SEC },
  find: findOwed,
  run: async (s, owed, now, only) => {
    let written = 0;
    for (const o of owed) {
      if ((await deliverReceived(s, o.companyId, o.ticketId, o.messageId)) !== null) written++;
    }
    await settleDeadJobs(s, only);
    await pruneDeliveries(s, now, only);
    return written;
  },
});

export const owedDeliveries = catchUp.owed;
export const catchUpDeliveries = catchUp.take;
export const deliveriesCatchUp: Sweep = catchUp.sweep;
