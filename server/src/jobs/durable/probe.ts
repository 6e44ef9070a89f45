import { appendFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { defineJobKind } from "./kind.js";

/** Set only by tests and fault runs: the file the probe job appends to; without it the kind does not exist. */
export const PROBE_FILE_ENV = "CHARLA_PROBE_JOBS_FILE";

/**
 * A test-only kind standing for an external effect: it waits `ms` (so a kill finds it in flight),
 * then appends its idempotency key to a file, as a receiver that dedupes by key would log it.
 */
export const probeJob = defineJobKind({
  kind: "test.probe",
  payload: z.object({ ms: z.number().int().min(0).max(60_000), fail: z.number().int().min(0).optional() }),
  leaseSec: 2,
  backoff: { baseSec: 1, capSec: 4 },
  run: async (_s, job) => {
    const file = process.env[PROBE_FILE_ENV];
    if (!file) throw new Error(`${PROBE_FILE_ENV} is not set`);
    await sleep(job.payload.ms);
    // the first `fail` attempts fail, to see retries across a restart
    if (job.attempt <= (job.payload.fail ?? 0)) throw new Error(`probe failure ${job.attempt}`);
    await appendFile(file, `${job.idempotencyKey ?? `job-${job.id}`} ${job.attempt}\n`);
  },
});
