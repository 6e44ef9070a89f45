import { cloudWebhookJob } from "./cloud-webhook.js";
import { deliverMessagesJob } from "./deliver-messages.js";
import { deliverWebhookJob } from "./deliver-webhook.js";
import type { AnyJobKind } from "./kind.js";
import { PROBE_FILE_ENV, probeJob } from "./probe.js";

/**
 * Every kind of one-off job the product runs, in one list (a node claims only kinds it knows, so a
 * rolling deploy leaves a new kind's rows to the nodes that have it). Areas add theirs here.
 */
const PRODUCT_JOB_KINDS: AnyJobKind[] = [deliverMessagesJob, deliverWebhookJob, cloudWebhookJob];

/** The kinds this process runs: the product's, and the test probe when a test asked for it. */
export function jobKinds(env: NodeJS.ProcessEnv = process.env): AnyJobKind[] {
  return env[PROBE_FILE_ENV] ? [...PRODUCT_JOB_KINDS, probeJob] : PRODUCT_JOB_KINDS;
}
