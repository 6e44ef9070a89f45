import type { QueueOptionForm, QueueOptionUpdateForm, QueueOptionView } from "@charla/contracts";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { toCount } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { queueOptions } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { assertOwnAutomation } from "../../automation/references.js";
import { presentQueueOption } from "./presenter.js";

type CreateInput = z.output<typeof QueueOptionForm>;
type UpdateInput = z.output<typeof QueueOptionUpdateForm>;

/** What GET /queue-options sends as parentId for the roots (core §7). */
const ROOTS = -1;

const child = alias(queueOptions, "child");

/** Options with how many children each has: a join and not a subquery, so Drizzle names both tables. */
function withChildrenCount(q: Scoped) {
  return q.db
    .select({ option: queueOptions, childrenCount: count(child.id) })
    .from(queueOptions)
    .leftJoin(
      child,
      and(
        eq(child.companyId, queueOptions.companyId),
        eq(child.queueId, queueOptions.queueId),
        eq(child.parentId, queueOptions.id),
      ),
    )
    .groupBy(queueOptions.id)
    .$dynamic();
}

// "10" after "9": options are numbers kept as text
const siblingOrder = [sql`length(${queueOptions.option})`, asc(queueOptions.option), asc(queueOptions.id)];

const level = (q: Scoped, queueId: number, parentId: number | null) =>
  q.queueOptions.where(
    eq(queueOptions.queueId, queueId),
    parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
  );

/**
 * The queue, and the parent unless the roots are meant: another company's queue answers
 * ERR_NO_QUEUE_FOUND, a parent of another company or of another queue ERR_NO_QUEUE_OPTION_FOUND.
 * `lock` takes the queue's row lock, which serialises every change to its tree.
 */
async function assertPlace(q: Scoped, queueId: number, parentId: number | null, lock: boolean) {
  found(await (lock ? q.queues.lockById(queueId) : q.queues.findById(queueId)), "ERR_NO_QUEUE_FOUND");
  if (parentId === null) return;
  const parent = await q.queueOptions.findById(parentId);
  if (!parent || parent.queueId !== queueId) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
}

async function optionView(q: Scoped, id: number): Promise<QueueOptionView> {
  const [row] = await withChildrenCount(q).where(q.queueOptions.where(eq(queueOptions.id, id)));
  found(row, "ERR_NO_QUEUE_OPTION_FOUND");
  return presentQueueOption(row.option, row.childrenCount);
}

/** GET /queue-options: one level of a queue's tree (parentId -1 or none: the roots), in option order. */
export async function listQueueOptions(q: Scoped, queueId: number, parentId: number | undefined): Promise<QueueOptionView[]> {
  const parent = parentId === undefined || parentId === ROOTS ? null : parentId;
  await assertPlace(q, queueId, parent, false);
  const rows = await withChildrenCount(q)
    .where(level(q, queueId, parent))
    .orderBy(...siblingOrder);
  return rows.map((r) => presentQueueOption(r.option, r.childrenCount));
}

/** POST /queue-options: appended to its level, numbered after its siblings. */
export function createQueueOption(ctx: RequestCtx, input: CreateInput): Promise<QueueOptionView> {
  return withTransaction(ctx.db, async (tx) => {
    const q = scoped(tx, ctx.companyId);
    // locked: two options added at once to one level become "3" and "4", never two "3"s
    await assertPlace(q, input.queueId, input.parentId, true);
    // a node's typebot or prompt must be the company's own (automation/references.ts)
    await assertOwnAutomation(q, { promptId: input.promptId, integrationId: input.q_integration_id });
    const [{ n }] = await tx
      .select({ n: count() })
      .from(queueOptions)
      .where(level(q, input.queueId, input.parentId));
    const row = await q.queueOptions.insert({
      queueId: input.queueId,
      parentId: input.parentId,
      title: input.title,
      message: input.message,
      option: String(toCount(n) + 1),
      qIntegrationId: input.q_integration_id,
      promptId: input.promptId,
    });
    return presentQueueOption(row, 0);
  });
}

/** PUT /queue-options/{id}: title, message, its typebot or prompt (when sent); its place in the tree does not move. */
export async function updateQueueOption(ctx: RequestCtx, id: number, input: UpdateInput): Promise<QueueOptionView> {
  const q = scoped(ctx.db, ctx.companyId);
  const before = found(await q.queueOptions.findById(id), "ERR_NO_QUEUE_OPTION_FOUND");
  await assertOwnAutomation(
    q,
    { promptId: input.promptId, integrationId: input.q_integration_id },
    { promptId: before.promptId, integrationId: before.qIntegrationId },
  );
  const changes = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.message !== undefined ? { message: input.message } : {}),
    ...(input.q_integration_id !== undefined ? { qIntegrationId: input.q_integration_id } : {}),
    ...(input.promptId !== undefined ? { promptId: input.promptId } : {}),
  };
  found(await q.queueOptions.update(id, changes), "ERR_NO_QUEUE_OPTION_FOUND");
  return optionView(q, id);
}

/** Numbers a level 1..n again, keeping its order (core §4: deleting an option renumbers the others). */
async function renumber(q: Scoped, queueId: number, parentId: number | null) {
  const siblings = await q.db
    .select({ id: queueOptions.id, option: queueOptions.option })
    .from(queueOptions)
    .where(level(q, queueId, parentId))
    .orderBy(...siblingOrder);
  for (const [i, sibling] of siblings.entries()) {
    const option = String(i + 1);
    if (sibling.option !== option) await q.queueOptions.update(sibling.id, { option });
  }
}

/** DELETE /queue-options/{id}: the option and its subtree (cascade), then its level renumbered, at once. */
export function deleteQueueOption(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx.db, async (tx) => {
    const q = scoped(tx, ctx.companyId);
    const option = found(await q.queueOptions.findById(id), "ERR_NO_QUEUE_OPTION_FOUND");
    // the queue's lock first, as adding takes it: one order of locks cannot deadlock
    await q.queues.lockById(option.queueId);
    // someone who held the lock before us may have deleted it (or its parent) meanwhile
    if (!(await q.queueOptions.delete(id))) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND");
    await renumber(q, option.queueId, option.parentId);
  });
}
