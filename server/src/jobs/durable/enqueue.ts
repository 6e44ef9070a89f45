import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { jobs } from "../../db/schema/index.js";
import { JOB_DEFAULTS, type JobKind } from "./kind.js";

export type EnqueueOptions = {
  /** Not before this moment (default: the next round of any node's runner). */
  runAfter?: Date;
  /** One job per company, kind and key: enqueueing the same cause twice adds nothing. */
  idempotencyKey?: string;
  maxAttempts?: number;
};

/**
 * Records a job in the caller's transaction, so it exists exactly when the change that causes it
 * commits (a rolled-back cause leaves no job; a committed one cannot lose it). Only a transaction
 * handle is accepted for that reason. Returns the job's id, or null when the idempotency key was
 * already used.
 */
export async function enqueue<P>(
  tx: Tx,
  companyId: number,
  kind: Pick<JobKind<P>, "kind" | "payload" | "maxAttempts">,
  payload: P,
  opts: EnqueueOptions = {},
): Promise<number | null> {
  const parsed = kind.payload.parse(payload);
  const rows = await tx
    .insert(jobs)
    .values({
      companyId,
      kind: kind.kind,
      payload: parsed,
      runAfter: opts.runAfter ?? sql`now()`,
      idempotencyKey: opts.idempotencyKey ?? null,
      maxAttempts: opts.maxAttempts ?? kind.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}
