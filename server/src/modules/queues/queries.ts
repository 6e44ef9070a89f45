import type { QueueView } from "@charla/contracts";
import { asc, sql } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { queues } from "../../db/schema/index.js";
import { found } from "../../lib/app-error.js";
import { presentQueue } from "./presenter.js";

/** The chatbot's order (core §3 orderQueue): numbered areas first, then the rest by name. */
export const queueOrder = [sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id)];

/** GET /queue: every area of the company, whole, in the chatbot's order. */
export async function listQueues(q: Scoped): Promise<QueueView[]> {
  const rows = await q.db
    .select()
    .from(queues)
    .where(q.queues.where())
    .orderBy(...queueOrder);
  return rows.map(presentQueue);
}

/** One area of the company; another company's id is not found like a missing one. */
export async function queueView(q: Scoped, id: number): Promise<QueueView> {
  return presentQueue(found(await q.queues.findById(id), "ERR_NO_QUEUE_FOUND"));
}
