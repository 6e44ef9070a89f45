import { type JobView, Limits } from "@charla/contracts";
import { and, count, desc, eq } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { type JobState, jobs } from "../../db/schema/index.js";

type JobRow = typeof jobs.$inferSelect;

/** The payload stays out: it may hold a contact's data that the list has no need to show. */
export const jobView = (j: JobRow): JobView => ({
  id: j.id,
  kind: j.kind,
  state: j.state,
  attempts: j.attempts,
  maxAttempts: j.maxAttempts,
  lastError: j.lastError,
  runAfter: j.runAfter.toISOString(),
  createdAt: j.createdAt.toISOString(),
  updatedAt: j.updatedAt.toISOString(),
});

/** GET /jobs: the company's jobs in one state, newest change first, 20 a page. */
export async function pageJobs(q: Scoped, state: JobState, pageNumber: number) {
  const size = Limits.pageSize;
  const where = q.jobs.where(eq(jobs.state, state));
  const [rows, [{ n }]] = await Promise.all([
    q.db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.updatedAt), desc(jobs.id))
      .limit(size + 1)
      .offset((pageNumber - 1) * size),
    q.db.select({ n: count() }).from(jobs).where(where),
  ]);
  return { jobs: rows.slice(0, size).map(jobView), hasMore: rows.length > size, count: toCount(n) };
}

/**
 * A dead job of the company starts over: attempts from zero, due now, its last error kept until the
 * next run says otherwise. Null when the company has no dead job by that id.
 */
export async function retryDeadJob(q: Scoped, id: number): Promise<JobView | null> {
  const [row] = await q.db
    .update(jobs)
    .set({ state: "pending", attempts: 0, runAfter: new Date(), lockedUntil: null, updatedAt: new Date() })
    .where(q.jobs.where(and(eq(jobs.id, id), eq(jobs.state, "dead"))))
    .returning();
  return row ? jobView(row) : null;
}
