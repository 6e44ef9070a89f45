import type { z } from "zod";
import type { Services } from "../../context.js";

/** What a handler is given: its row's facts and the payload, parsed. */
export type RunningJob<P> = {
  id: number;
  companyId: number;
  payload: P;
  /** 1 on the first run; a run after a crash or a failure counts up. */
  attempt: number;
  /** The producer's key, if any: pass it to an external service so a repeated run is not a repeated effect. */
  idempotencyKey: string | null;
};

/**
 * A kind of one-off durable work. The handler runs outside any transaction and may run more than once
 * (its runner can die after the effect and before the row is marked done): an effect inside our
 * database should be written conditionally, an external one should carry the idempotency key.
 */
export type JobKind<P> = {
  kind: string;
  payload: z.ZodType<P>;
  run: (s: Services, job: RunningJob<P>) => Promise<void>;
  /** Claims before the job is dead (default 8). */
  maxAttempts?: number;
  /**
   * How long one run may take (default 300 s): past it the run counts as failed (ERR_JOB_TIMEOUT) and
   * another node may claim the job. Keep the handler's own timeouts well within it.
   */
  leaseSec?: number;
  /** Wait before the n-th retry: baseSec · 2^(n-1), at most capSec (defaults 10 s and 1 h). */
  backoff?: { baseSec: number; capSec: number };
};

// biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of every payload type
export type AnyJobKind = JobKind<any>;

export const JOB_DEFAULTS = { maxAttempts: 8, leaseSec: 300, backoff: { baseSec: 10, capSec: 3600 } } as const;

/** Names the kind once, with its payload's type, for `enqueue` and the runner. */
export function defineJobKind<P>(kind: JobKind<P>): JobKind<P> {
  return kind;
}

/** Seconds to wait after the `attempt`-th failed run. */
export function backoffSec(kind: AnyJobKind, attempt: number): number {
  const { baseSec, capSec } = kind.backoff ?? JOB_DEFAULTS.backoff;
  return Math.min(capSec, baseSec * 2 ** Math.max(0, attempt - 1));
}
