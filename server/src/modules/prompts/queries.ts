import { Limits, type PromptsPage, type PromptView } from "@charla/contracts";
import { and, asc, count, eq, ilike } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { prompts, queues } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { escapeLike } from "../../lib/like.js";
import { presentPrompt } from "./presenter.js";

const withQueue = (q: Scoped) =>
  q.db
    .select({ row: prompts, queue: { id: queues.id, name: queues.name, color: queues.color } })
    .from(prompts)
    .leftJoin(queues, and(eq(queues.companyId, prompts.companyId), eq(queues.id, prompts.queueId)));

/** GET /prompt: the company's prompts whose name holds the search, by name, 20 a page. */
export async function pagePrompts(q: Scoped, secrets: SecretBox, search: string, pageNumber: number): Promise<PromptsPage> {
  const where = q.prompts.where(search ? ilike(prompts.name, `%${escapeLike(search)}%`) : undefined);
  const offset = (pageNumber - 1) * Limits.pageSize;
  const [rows, [{ total }]] = await Promise.all([
    withQueue(q).where(where).orderBy(asc(prompts.name), asc(prompts.id)).limit(Limits.pageSize).offset(offset),
    q.db.select({ total: count() }).from(prompts).where(where),
  ]);
  const n = toCount(total);
  return {
    prompts: rows.map((r) => presentPrompt(secrets, r.row, r.queue)),
    count: n,
    hasMore: n > offset + rows.length,
  };
}

/** One prompt of the company, presented; null for none (another company's included). */
export async function findPromptView(q: Scoped, secrets: SecretBox, id: number): Promise<PromptView | null> {
  const [r] = await withQueue(q)
    .where(q.prompts.where(eq(prompts.id, id)))
    .limit(1);
  return r ? presentPrompt(secrets, r.row, r.queue) : null;
}
