import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import type { messages, tickets } from "../../db/schema/index.js";
import type { AfterCommit } from "../../db/tx.js";
import { deliverMessagesJob } from "../../jobs/durable/deliver-messages.js";
import { enqueue } from "../../jobs/durable/enqueue.js";
import { runJobNow } from "../../jobs/durable/run.js";
import { recordAutomatic } from "./send.js";

type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

/**
 * Automatic messages (greetings, transfer and expiry notices, the rating's reply, the bot's texts),
 * recorded in the transaction of the change that causes them together with the job that sends them:
 * a crash after the commit leaves both, and any node's runner sends the rows still queued, under
 * their recorded channel ids. Right after the commit this node runs the job itself, on the ticket's
 * lane (`registerAutomaticDelivery`), so the customer does not wait for a runner's round.
 */
export async function queueAutomatic(
  s: Services,
  tx: Tx,
  afterCommit: AfterCommit,
  companyId: number,
  ticket: TicketRow,
  bodies: string[],
  at?: Date,
): Promise<MessageRow[]> {
  const rows = await recordAutomatic(tx, companyId, ticket, bodies, at);
  if (!rows.length) return rows;
  const jobId = await enqueue(
    tx,
    companyId,
    deliverMessagesJob,
    { messageIds: rows.map((r) => r.id) },
    { idempotencyKey: rows[0].channelId ?? undefined },
  );
  if (jobId) await s.events.within(tx, afterCommit, { type: "automatic.queued", companyId, ticketId: ticket.id, jobId });
  return rows;
}

/** The lane automatic messages of one ticket go out on, one job after another. */
export const DELIVERY_LISTENER = "messages.deliver-now";
export const deliveryLane = (companyId: number, ticketId: number) => `${companyId}:${ticketId}`;

/** Runs each queued delivery on this node once its cause has committed, a ticket's in the order queued. */
export function registerAutomaticDelivery(s: Services): void {
  s.events.on(
    "automatic.queued",
    { id: DELIVERY_LISTENER, phase: "detached", lane: (e) => deliveryLane(e.companyId, e.ticketId) },
    async (e) => {
      await runJobNow(s, [deliverMessagesJob], e.jobId);
    },
  );
}
