import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

export const JobStates = ["pending", "running", "done", "dead"] as const;
export type JobState = (typeof JobStates)[number];

/**
 * One-off durable work (docs/jobs.md): written in the transaction that causes it, claimed by any node's
 * runner with FOR UPDATE SKIP LOCKED and run under a lease, retried with backoff, `dead` after its
 * last attempt (admins see and retry those).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    state: text("state", { enum: JobStates }).notNull().default("pending"),
    /** Not claimed before this (a retry's backoff, or a delay asked for at enqueue). */
    runAfter: timestamp("run_after", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Claims so far, the running one included: a run that crashed counts. */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    lastError: text("last_error"),
    /** Given by the producer when the effect must happen once per cause: a second enqueue is a no-op. */
    idempotencyKey: text("idempotency_key"),
    /** While running: past this the runner is taken for dead and the job may be claimed again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("jobs_idempotency_key").on(t.companyId, t.kind, t.idempotencyKey),
    index("jobs_due_idx").on(t.runAfter).where(sql`${t.state} = 'pending'`),
    index("jobs_lease_idx").on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    index("jobs_company_state_idx").on(t.companyId, t.state, t.id),
    index("jobs_done_idx").on(t.updatedAt).where(sql`${t.state} = 'done'`),
  ],
);
