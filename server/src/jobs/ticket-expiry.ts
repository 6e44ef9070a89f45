import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Services } from "../context.js";
import { companies, tickets, whatsapps } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { fillTemplate } from "../lib/template.js";
import { templateFactsOf } from "../modules/tickets/automatic-messages.js";
import { expire, within } from "../modules/tickets/transitions.js";
import { connectedInGoodStanding } from "./eligible.js";
import type { Sweep } from "./sweep.js";

/** The ticket's last message is ours (fromMe) and older than the connection's `expiresTicket` hours. */
const silentAfterOurs = (now: Date) => sql`exists (
  select 1 from (
    select m.from_me, m.created_at from messages m
     where m.company_id = ${tickets.companyId} and m.ticket_id = ${tickets.id}
     order by m.created_at desc, m.id desc limit 1
  ) last
  where last.from_me and last.created_at <= ${now.toISOString()}::timestamptz - make_interval(hours => ${whatsapps.expiresTicket})
)`;

/**
 * The expiring connections this process can send through: its own session, or one held by another
 * live process reached through the bus; those without a message need none. A session still leased to
 * a process that just died (or, without Redis, held by another node) is left for its holder, so the
 * expiry message is not recorded only to fail.
 */
async function reachableConnections(s: Services, now: Date): Promise<number[]> {
  const rows = await s.db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId, message: whatsapps.expiresInactiveMessage })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .where(and(gt(whatsapps.expiresTicket, 0), connectedInGoodStanding(now)));
  const ids: number[] = [];
  for (const w of rows) {
    if (!w.message.trim() || (await s.sessions.driverFor(w.companyId, w.id).catch(() => null))) ids.push(w.id);
  }
  return ids;
}

/**
 * Expiry (behaviours: Expiry): an open contact ticket whose last message was ours and that has been
 * silent `expiresTicket` hours is closed with the connection's `expiresInactiveMessage`. One batch:
 * the due tickets are claimed with FOR UPDATE SKIP LOCKED and closed only while still open; the
 * message row and its delivery job are recorded in the same transaction as the close, and sent after
 * the commit, so a crash can neither lose it nor, the ticket being closed already, record it again.
 */
export async function expireInactiveTickets(s: Services, now: Date, limit: number): Promise<number> {
  const connections = await reachableConnections(s, now);
  if (!connections.length) return 0;
  const closed = await withTransaction(s, async (tx, hooks) => {
    const due = await tx
      .select({ ticket: tickets, message: whatsapps.expiresInactiveMessage })
      .from(tickets)
      .innerJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, tickets.companyId)))
      .innerJoin(companies, eq(companies.id, tickets.companyId))
      .where(
        and(
          eq(tickets.status, "open"),
          eq(tickets.isGroup, false),
          inArray(tickets.whatsappId, connections),
          gt(whatsapps.expiresTicket, 0),
          connectedInGoodStanding(now),
          silentAfterOurs(now),
        ),
      )
      .orderBy(tickets.id)
      .limit(limit)
      .for("update", { of: tickets, skipLocked: true });
    let count = 0;
    for (const { ticket, message } of due) {
      const w = within(s, tx, ticket.companyId, hooks);
      const expired = await expire(w, ticket, async (after) => {
        if (!message.trim()) return "";
        const agent = after.userId ? await w.q.users.findById(after.userId) : null;
        return fillTemplate(message, await templateFactsOf(w.q, after, agent, now));
      });
      if (expired) count++;
    }
    return count;
  });
  return closed;
}

export const ticketExpiry: Sweep = { name: "ticket-expiry", batch: expireInactiveTickets };
