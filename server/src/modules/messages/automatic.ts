import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { sql } from "drizzle-orm";
import { jobs, messages, type tickets } from "../../db/schema/index.js";
import type { TxHooks } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { deliverMessagesJob } from "../../jobs/durable/deliver-messages.js";
import { JOB_DEFAULTS } from "../../jobs/durable/kind.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { runJobNow } from "../../jobs/durable/run.js";
import { automaticValues } from "./send.js";

type TicketRow = typeof tickets.$inferSelect;
/** A transaction under way with the services and its `publish` (db/tx.ts). */
export type InTransaction = { tx: Tx; publish: TxHooks<DomainEvent>["publish"] };

/**
 * Automatic messages (greetings, transfer and expiry notices, the rating's reply, the bot's texts),
 * recorded in the transaction of the change that causes them together with the job that sends them:
 * a crash after the commit leaves both, and any node's runner sends the rows still queued, under
 * their recorded channel ids. Right after the commit this node runs the job itself, on the ticket's
 * lane (`registerAutomaticDelivery`), so the customer does not wait for a runner's round.
 */
export async function queueAutomatic(
  { tx, publish }: InTransaction,
  companyId: number,
  ticket: TicketRow,
  bodies: string[],
  at?: Date,
): Promise<(ReturnType<typeof automaticValues>[number] & { id: number })[]> {
  if (bodies.length === 0) return [];
  const values = automaticValues(companyId, ticket, bodies, at);
  const kind = deliverMessagesJob;
  // the rows and their job in one statement: the job's payload is the ids the insert gave, in order
  const recorded = tx.insert(messages).values(values).returning({ id: messages.id });
  const result = await tx.execute(sql`with m as (${recorded.getSQL()}),
    j as (insert into ${jobs} (company_id, kind, payload, idempotency_key, max_attempts)
      select ${companyId}, ${kind.kind}, jsonb_build_object('messageIds', jsonb_agg(m.id order by m.id)),
        ${values[0].channelId}, ${kind.maxAttempts ?? JOB_DEFAULTS.maxAttempts} from m
      on conflict do nothing returning id)
    select (select array_agg(m.id order by m.id) from m) as ids, (select j.id from j) as job_id`);
  const [{ ids, job_id: jobId }] = rowsOf<{ ids: number[]; job_id: number | null }>(result);
  if (jobId !== null) await publish({ type: "automatic.queued", companyId, ticketId: ticket.id, jobId });
  // ids follow the values' order (one statement, one sequence)
  return values.map((v, i) => ({ ...v, id: Number(ids[i]) }));
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
