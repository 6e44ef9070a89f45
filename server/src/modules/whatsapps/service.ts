import type { ConnectionForm, ConnectionView } from "@charla/contracts";
import { and, asc, count, eq, inArray, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { toCount } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { companies, plans, queues, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { assertOwnAutomation } from "../../automation/references.js";
import { connectionChanged } from "./broadcast.js";
import { type CloudViewHost, checkFallbackTemplate, cloudColumns, probeConnection } from "../cloud/settings.js";
import { presentConnections, tokenOfNumber } from "./presenter.js";

type Input = z.output<typeof ConnectionForm>;
type Row = typeof whatsapps.$inferSelect;

export async function connectionView(q: Scoped, host: CloudViewHost, id: number): Promise<ConnectionView> {
  const row = found(await q.whatsapps.findById(id), "ERR_NO_WAPP_FOUND");
  return (await presentConnections(q, host, [row]))[0];
}

export async function listConnections(q: Scoped, host: CloudViewHost): Promise<ConnectionView[]> {
  const rows = await q.db.select().from(whatsapps).where(q.whatsapps.where()).orderBy(asc(whatsapps.name), asc(whatsapps.id));
  return presentConnections(q, host, rows);
}

/** Connections by id, with their queues, in id order. */
export async function connectionViews(q: Scoped, host: CloudViewHost, ids: number[]): Promise<ConnectionView[]> {
  if (ids.length === 0) return [];
  const rows = await q.db
    .select()
    .from(whatsapps)
    .where(q.whatsapps.where(inArray(whatsapps.id, ids)))
    .orderBy(asc(whatsapps.id));
  return presentConnections(q, host, rows);
}

/**
 * Before a queue is deleted: connections stop sending new tickets to it (`sendIdQueue` has no key that
 * would clear it) and its key drops it from their lists. Returns the connections whose view changes.
 */
export async function releaseQueue(q: Scoped, queueId: number): Promise<number[]> {
  const offering = await q.db
    .select({ id: whatsappQueues.whatsappId })
    .from(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, q.companyId), eq(whatsappQueues.queueId, queueId)));
  // updatedAt stays: the connections page shows it as the session's last change
  const sending = await q.db
    .update(whatsapps)
    .set({ sendIdQueue: null })
    .where(q.whatsapps.where(eq(whatsapps.sendIdQueue, queueId)))
    .returning({ id: whatsapps.id });
  return [...new Set([...offering, ...sending].map((r) => r.id))];
}

/** Queues of the caller's company only; a greeting is required when the contact must choose (core §5). */
async function checkQueues(q: Scoped, input: Input, current?: { promptId: number | null; integrationId: number | null }) {
  const ids = [...new Set(input.queueIds)];
  if (ids.length) {
    const owned = await q.db
      .select({ id: queues.id })
      .from(queues)
      .where(q.queues.where(inArray(queues.id, ids)));
    if (owned.length !== ids.length) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  if (input.sendIdQueue) found(await q.queues.findById(input.sendIdQueue), "ERR_NO_QUEUE_FOUND");
  if (ids.length > 1 && !input.greetingMessage.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED");
  // its prompt and integration must be the company's own (automation/references.ts)
  await assertOwnAutomation(q, input, current);
  return ids;
}

function fieldsOf(input: Input) {
  return {
    name: input.name,
    token: tokenOfNumber(input.number),
    greetingMessage: input.greetingMessage,
    complationMessage: input.complationMessage,
    transferMessage: input.transferMessage,
    outOfHoursMessage: input.outOfHoursMessage,
    ratingMessage: input.ratingMessage,
    expiresInactiveMessage: input.expiresInactiveMessage,
    promptId: input.promptId,
    integrationId: input.integrationId,
    sendIdQueue: input.sendIdQueue,
    timeSendQueue: input.timeSendQueue,
    maxUseBotQueues: input.maxUseBotQueues,
    timeUseBotQueues: input.timeUseBotQueues,
    expiresTicket: input.expiresTicket,
  };
}

async function setQueues(q: Scoped, whatsappId: number, queueIds: number[]) {
  await q.db
    .delete(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, q.companyId), eq(whatsappQueues.whatsappId, whatsappId)));
  if (queueIds.length)
    await q.db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ companyId: q.companyId, whatsappId, queueId })));
}

/** Exactly one default per company: making one the default unsets the others (their views are returned). */
async function makeDefault(q: Scoped, host: CloudViewHost, id: number): Promise<ConnectionView[]> {
  const unset = await q.db
    .update(whatsapps)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(q.whatsapps.where(ne(whatsapps.id, id), eq(whatsapps.isDefault, true)))
    .returning();
  return presentConnections(q, host, unset);
}

/**
 * A new connection. The simulator has nothing to scan: it starts at once and answers CONNECTED
 * (issue 26: a new one no longer waits DISCONNECTED for «Reintentar»); a real phone waits for it; a
 * Cloud API one answers as its test call found it.
 */
export async function createConnection(ctx: RequestCtx, input: Input): Promise<ConnectionView> {
  await checkFallbackTemplate(ctx, input, null);
  const view = await insertConnection(ctx, input);
  if (view.provider === "cloud") return probed(ctx, view.id);
  if (view.provider !== "simulator") return view;
  try {
    await ctx.sessions.restart(ctx.companyId, view.id);
  } catch (err) {
    // the connection is saved: answering 500 would have the client create it again. It stays as
    // saved (DISCONNECTED), and «Reintentar» starts it
    ctx.log.error({ err, whatsappId: view.id }, "new simulator connection did not start");
    return view;
  }
  return connectionView(scoped(ctx.db, ctx.companyId), ctx, view.id);
}

/** A saved Cloud API connection after its test call (status, number), told to the company again. */
async function probed(ctx: RequestCtx, id: number): Promise<ConnectionView> {
  await probeConnection(ctx, ctx.companyId, id);
  const view = await connectionView(scoped(ctx.db, ctx.companyId), ctx, id);
  ctx.events.publish(await connectionChanged(ctx.db, ctx.companyId, { action: "update", whatsapp: view }));
  return view;
}

function insertConnection(ctx: RequestCtx, input: Input): Promise<ConnectionView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    // the company row is locked: two creations at once cannot both pass the plan's limit
    const [limits] = await tx
      .select({ max: plans.connections })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, ctx.companyId))
      .for("update", { of: companies });
    const [{ n }] = await tx.select({ n: count() }).from(whatsapps).where(q.whatsapps.where());
    if (limits && toCount(n) >= limits.max) throw new AppError("ERR_CONNECTION_LIMIT_REACHED");
    const queueIds = await checkQueues(q, input);
    // the first connection is the default whatever was asked: a company always has one
    const isDefault = input.isDefault || toCount(n) === 0;
    const row = await q.whatsapps.insert({
      ...fieldsOf(input),
      ...cloudColumns(ctx.secrets, input, null),
      provider: input.provider,
      isDefault,
      status: "DISCONNECTED",
    });
    const unset = isDefault ? await makeDefault(q, ctx, row.id) : [];
    await setQueues(q, row.id, queueIds);
    const view = await connectionView(q, ctx, row.id);
    for (const other of [...unset, view])
      await publish(await connectionChanged(tx, ctx.companyId, { action: "update", whatsapp: other }));
    return view;
  });
}

export async function updateConnection(ctx: RequestCtx, id: number, input: Input): Promise<ConnectionView> {
  // another company's id is not found before anything is asked of Meta
  const current = found(await scoped(ctx.db, ctx.companyId).whatsapps.findById(id), "ERR_NO_WAPP_FOUND");
  await checkFallbackTemplate(ctx, input, current);
  const view = await saveConnection(ctx, id, input);
  return view.provider === "cloud" ? probed(ctx, id) : view;
}

function saveConnection(ctx: RequestCtx, id: number, input: Input): Promise<ConnectionView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const current = found(await q.whatsapps.lockById(id), "ERR_NO_WAPP_FOUND");
    const queueIds = await checkQueues(q, input, current);
    // the default cannot simply be switched off: another connection must become the default instead
    if (current.isDefault && !input.isDefault) throw new AppError("ERR_NO_OTHER_WHATSAPP");
    // the provider is chosen at creation; a live session cannot change what runs it
    await q.whatsapps.update(id, {
      ...fieldsOf(input),
      ...cloudColumns(ctx.secrets, input, current),
      isDefault: input.isDefault,
    });
    const unset = input.isDefault ? await makeDefault(q, ctx, id) : [];
    await setQueues(q, id, queueIds);
    const view = await connectionView(q, ctx, id);
    for (const other of [...unset, view])
      await publish(await connectionChanged(tx, ctx.companyId, { action: "update", whatsapp: other }));
    return view;
  });
}

/** Deleting the default hands the role to the oldest remaining connection. */
export async function deleteConnection(ctx: RequestCtx, id: number): Promise<void> {
  let removed: Row | null = null;
  await withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    removed = found(await q.whatsapps.lockById(id), "ERR_NO_WAPP_FOUND");
    await q.whatsapps.delete(id);
    if (removed.isDefault) {
      const [next] = await q.db.select().from(whatsapps).where(q.whatsapps.where()).orderBy(asc(whatsapps.id)).limit(1);
      if (next) {
        await q.whatsapps.update(next.id, { isDefault: true });
        const view = await connectionView(q, ctx, next.id);
        await publish(await connectionChanged(tx, ctx.companyId, { action: "update", whatsapp: view }));
      }
    }
    await publish(await connectionChanged(tx, ctx.companyId, { action: "delete", whatsappId: id }));
  });
  await ctx.sessions.stop(id);
}
