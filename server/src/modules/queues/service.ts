import type { QueueEvent, QueueForm, QueueView } from "@charla/contracts";
import { count, eq, ne, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { toCount } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { companies, plans, queues } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { assertOwnAutomation, clearPromptQueue } from "../../automation/references.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from "../../lib/pg-errors.js";
import { queueMemberIds, userViewsByIds } from "../users/queries.js";
import { userChanged } from "../users/service.js";
import { connectionChanged } from "../whatsapps/broadcast.js";
import { connectionViews, releaseQueue } from "../whatsapps/service.js";
import { presentQueue } from "./presenter.js";

type Input = z.output<typeof QueueForm>;

/** `company-{id}-queue` to the whole company. */
function queueChanged(companyId: number, change: QueueEvent): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "queue", change };
}

/** The unique indexes have the last word: two saves at once both pass the check below. */
function mapUnique(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) {
    const constraint = pgConstraint(err);
    if (constraint === "queues_company_color_key") throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    if (constraint === "queues_company_name_key") throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
  }
  throw err;
}

/** Colour and name are unique per company (core §5); a clash on both answers the colour's code. */
async function assertFree(q: Scoped, input: Input, exceptId?: number) {
  const taken = await q.db
    .select({ color: queues.color })
    .from(queues)
    .where(
      q.queues.where(
        // colours saved before they were upper-cased still count as the same colour
        or(eq(sql`upper(${queues.color})`, input.color), eq(queues.name, input.name)),
        exceptId ? ne(queues.id, exceptId) : undefined,
      ),
    );
  if (taken.some((r) => r.color.toUpperCase() === input.color)) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
  if (taken.length) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS");
}

/** What the form sets; what it leaves out keeps its value (on create, the column's default). */
function fieldsOf(input: Input) {
  return {
    name: input.name,
    color: input.color,
    greetingMessage: input.greetingMessage,
    complationMessage: input.complationMessage,
    outOfHoursMessage: input.outOfHoursMessage,
    ratingMessage: input.ratingMessage,
    ...(input.orderQueue !== undefined ? { orderQueue: input.orderQueue } : {}),
    ...(input.zone_time !== undefined ? { timeZone: input.zone_time } : {}),
    ...(input.schedules !== undefined ? { schedules: input.schedules } : {}),
    ...(input.promptId !== undefined ? { promptId: input.promptId } : {}),
    ...(input.integrationId !== undefined ? { integrationId: input.integrationId } : {}),
  };
}

/** The plan's number of areas; the company row is locked so two creations at once cannot both pass. */
async function assertBelowPlanLimit(tx: Tx, q: Scoped) {
  const [limits] = await tx
    .select({ max: plans.queues })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, q.companyId))
    .for("update", { of: companies });
  const [{ n }] = await tx.select({ n: count() }).from(queues).where(q.queues.where());
  if (limits && toCount(n) >= limits.max) throw new AppError("ERR_QUEUE_LIMIT_REACHED");
}

/** POST /queue: within the plan's count; hours default to core §9's week in America/Noronha. */
export function createQueue(ctx: RequestCtx, input: Input): Promise<QueueView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    await assertBelowPlanLimit(tx, q);
    await assertFree(q, input);
    await assertOwnAutomation(q, input);
    const view = presentQueue(await q.queues.insert(fieldsOf(input)).catch(mapUnique));
    await publish(queueChanged(ctx.companyId, { action: "create", queue: view }));
    return view;
  });
}

/** PUT /queue/{id}: the whole form; zone, hours, order, prompt and integration only when sent. */
export function updateQueue(ctx: RequestCtx, id: number, input: Input): Promise<QueueView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.queues.lockById(id), "ERR_NO_QUEUE_FOUND");
    await assertFree(q, input, id);
    await assertOwnAutomation(q, input, before);
    const row = found(await q.queues.update(id, fieldsOf(input)).catch(mapUnique), "ERR_NO_QUEUE_FOUND");
    const view = presentQueue(row);
    await publish(queueChanged(ctx.companyId, { action: "update", queue: view }));
    return view;
  });
}

/**
 * DELETE /queue/{id}, in one transaction: its tickets stay, without a queue (their key sets null and
 * the list counts follow, migration 0010); user and connection links and the option tree go with it
 * (cascades). Users and connections that listed it are announced again, without it.
 */
export function deleteQueue(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.queues.lockById(id), "ERR_NO_QUEUE_FOUND");
    const userIds = await queueMemberIds(q, id);
    const whatsappIds = await releaseQueue(q, id);
    // no prompt hands over to a deleted area any more (automation/references.ts)
    await clearPromptQueue(tx, ctx.companyId, id);
    await q.queues.delete(id);
    const users = await userViewsByIds(q, userIds);
    const connections = await connectionViews(q, ctx, whatsappIds);
    await publish(queueChanged(ctx.companyId, { action: "delete", queueId: id }));
    for (const user of users) await publish(userChanged(ctx.companyId, "update", user));
    for (const whatsapp of connections) await publish(await connectionChanged(tx, ctx.companyId, { action: "update", whatsapp }));
  });
}
