import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Services } from "../context.js";
import { companies, tickets, whatsapps } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { routeByDelay, within } from "../modules/tickets/transitions.js";
import { connectedInGoodStanding } from "./eligible.js";
import type { Sweep } from "./sweep.js";

/**
 * When the ticket entered the queue: its open tracking episode's queuedAt (a reopened ticket queues
 * again), else its creation.
 */
const queuedSince = sql`coalesce((
  select max(tt.queued_at) from ticket_tracking tt
   where tt.company_id = ${tickets.companyId} and tt.ticket_id = ${tickets.id} and tt.finished_at is null
), ${tickets.createdAt})`;

/**
 * `sendIdQueue` / `timeSendQueue` (behaviours: Queue choice): a pending, queue-less ticket waiting
 * `timeSendQueue` minutes is moved to the connection's `sendIdQueue`. One batch: the due tickets are
 * claimed with FOR UPDATE SKIP LOCKED and moved only while still pending and queue-less, so two nodes
 * never move one twice; everyone who may see the ticket hears of it after the commit.
 */
export async function routeDelayedTickets(s: Services, now: Date, limit: number): Promise<number> {
  return withTransaction(s, async (tx, hooks) => {
    const due = await tx
      .select({ ticket: tickets, queueId: whatsapps.sendIdQueue })
      .from(tickets)
      .innerJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, tickets.companyId)))
      .innerJoin(companies, eq(companies.id, tickets.companyId))
      .where(
        and(
          eq(tickets.status, "pending"),
          isNull(tickets.queueId),
          eq(tickets.isGroup, false),
          gt(whatsapps.timeSendQueue, 0),
          isNotNull(whatsapps.sendIdQueue),
          connectedInGoodStanding(now),
          sql`${queuedSince} <= ${now.toISOString()}::timestamptz - make_interval(mins => ${whatsapps.timeSendQueue})`,
          // a queue of the same company that still exists
          sql`exists (select 1 from queues q where q.company_id = ${tickets.companyId} and q.id = ${whatsapps.sendIdQueue})`,
        ),
      )
      .orderBy(tickets.id)
      .limit(limit)
      .for("update", { of: tickets, skipLocked: true });
    let moved = 0;
    for (const { ticket, queueId } of due) {
      if (queueId === null) continue;
      if (await routeByDelay(within(s, tx, ticket.companyId, hooks), ticket, queueId)) moved++;
    }
    return moved;
  });
}

export const delayedRouting: Sweep = { name: "delayed-routing", batch: routeDelayedTickets };
