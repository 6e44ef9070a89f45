import type { Services } from "../context.js";
import { deliveriesCatchUp } from "../automation/deliveries.js";
import { botTurns } from "./bot-turns.js";
import { campaignResumes, campaignSends, campaignStarts } from "./campaigns.js";
import { companySockets } from "./company-sockets.js";
import { contactListChecks } from "./contact-list-checks.js";
import { delayedRouting } from "./delayed-routing.js";
import { jobKinds } from "./durable/kinds.js";
import { jobPrune, jobSweep } from "./durable/run.js";
import { interruptedSends } from "./interrupted-sends.js";
import { invoiceSweep } from "./invoices.js";
import { scheduleSends } from "./schedules.js";
import type { Sweep } from "./sweep.js";
import { ticketExpiry } from "./ticket-expiry.js";

export type { Sweep } from "./sweep.js";

/** The sweeps every node runs. */
export const SWEEPS: Sweep[] = [
  delayedRouting,
  ticketExpiry,
  contactListChecks,
  campaignStarts,
  campaignResumes,
  campaignSends,
  scheduleSends,
  jobSweep(jobKinds()),
  jobPrune,
  interruptedSends,
  companySockets,
  botTurns,
  deliveriesCatchUp,
  invoiceSweep,
];

export type JobRunnerOptions = {
  intervalMs: number;
  /** The clock the sweeps judge "due" by (tests inject one). */
  now?: () => Date;
  sweeps?: Sweep[];
  batchSize?: number;
  /** Batches of each sweep per round at most, so one backlog cannot hold the node for long. */
  maxBatches?: number;
  /** When each sweep with `everyMs` last ran on this node (kept by the runner across rounds). */
  lastRun?: Map<string, number>;
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
  const lastRun = opts.lastRun;
  let pending = (opts.sweeps ?? SWEEPS).filter((sweep) => {
    if (!sweep.everyMs || !lastRun) return true;
    const at = Date.now();
    if (at - (lastRun.get(sweep.name) ?? Number.NEGATIVE_INFINITY) < sweep.everyMs) return false;
    lastRun.set(sweep.name, at);
    return true;
  });
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
  const lastRun = new Map<string, number>();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = runSweeps(s, { ...opts, lastRun }).finally(schedule);
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
