import { z } from "zod";
import { deliverQueued } from "../../modules/messages/send.js";
import { defineJobKind } from "./kind.js";

const MAX_ATTEMPTS = 6;

/**
 * Sends automatic messages recorded in their cause's transaction (`queueAutomatic`), in order. A row
 * no longer queued is skipped (sent, acked or failed already), and a row sent again after a crash
 * goes under the channel id chosen when it was recorded (the job's idempotency key is the first
 * one's), which WhatsApp shows once. Without a reachable session the job is retried (a restarted node
 * takes a dead one's sessions only once their leases lapse); at its last attempt the rows are marked
 * failed for the agents to see.
 */
export const deliverMessagesJob = defineJobKind({
  kind: "message.deliver",
  payload: z.object({ messageIds: z.array(z.number().int().positive()).min(1) }),
  maxAttempts: MAX_ATTEMPTS,
  // far beyond a send; a run cut off by a crash is taken again once this lapses (a second run while a
  // first one still hangs in the driver would send under the same ids, which WhatsApp shows once)
  leaseSec: 30,
  // 2, 4, 8, 16, 30 s: about a minute before the last attempt, time for a session lease to move
  backoff: { baseSec: 2, capSec: 30 },
  run: (s, job) => deliverQueued(s, job.companyId, job.payload.messageIds, { lastAttempt: job.attempt >= MAX_ATTEMPTS }),
});
