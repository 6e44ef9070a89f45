import type { Services } from "../context.js";
import { campaignResumes, campaignSends, campaignStarts } from "./campaigns.js";
import { contactListChecks } from "./contact-list-checks.js";
import { delayedRouting } from "./delayed-routing.js";
import { ticketExpiry } from "./ticket-expiry.js";

/**
 * A timed job: one batch claims at most `limit` due rows in a transaction (`FOR UPDATE SKIP LOCKED`)
 * and changes them conditionally, so any number of nodes may run it and each row is acted on once.
 * Returns how many rows it changed.
 */
export type Sweep = {
  name: string;
  batch: (s: Services, now: Date, limit: number) => Promise<number>;
};

/** The sweeps every node runs. */
export const SWEEPS: Sweep[] = [delayedRouting, ticketExpiry, contactListChecks, campaignStarts, campaignResumes, campaignSends];

export type JobRunnerOptions = {
  intervalMs: number;
  /** The clock the sweeps judge "due" by (tests inject one). */
  now?: () => Date;
  sweeps?: Sweep[];
  batchSize?: number;
  /** Batches of each sweep per round at most, so one backlog cannot hold the node for long. */
  maxBatches?: number;
};

export const DEFAULT_BATCH_SIZE = 50;
const DEFAULT_MAX_BATCHES = 40;

/**
 * One round: the sweeps take turns, one batch each, until none has a full batch left (or maxBatches),
 * so a backlog of one does not starve the others. A failing sweep is logged and left for the next round.
 */
export async function runSweeps(s: Services, opts: Omit<JobRunnerOptions, "intervalMs"> = {}): Promise<number> {
  const now = opts.now ?? (() => new Date());
  const limit = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  let pending = [...(opts.sweeps ?? SWEEPS)];
  let total = 0;
  for (let round = 0; pending.length && round < (opts.maxBatches ?? DEFAULT_MAX_BATCHES); round++) {
    const full: Sweep[] = [];
    for (const sweep of pending) {
      try {
        const n = await sweep.batch(s, now(), limit);
        total += n;
        if (n >= limit) full.push(sweep);
      } catch (err) {
        s.log.warn({ err: { message: (err as Error).message }, sweep: sweep.name }, "timed job failed");
      }
    }
    pending = full;
  }
  return total;
}

/**
 * Runs the sweeps every `intervalMs` on this process, a round never overlapping the previous one.
 * `stop()` lets the round under way finish (its sends included) and runs no further one.
 */
export function startJobRunner(s: Services, opts: JobRunnerOptions): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<unknown> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = runSweeps(s, opts).finally(schedule);
    }, opts.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
