import { type ClosedTicketsPage, Limits } from "@charla/contracts";
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { tickets, ticketTracking, users } from "../../db/schema/index.js";
import { presentTickets } from "./presenter.js";

/**
 * Finished ticket episodes matching `condition`, newest first, 20 a page, each with its ticket's view
 * and who closed it: the closed tickets' history (agents) and the dashboard's closed-tickets table.
 */
export async function pageFinishedEpisodes(
  q: Scoped,
  condition: SQL | undefined,
  pageNumber: number,
): Promise<ClosedTicketsPage> {
  const where = q.ticketTracking.where(condition);
  const size = Limits.pageSize;
  const offset = (pageNumber - 1) * size;
  const rows = await q.db
    .select({
      id: ticketTracking.id,
      ticketId: ticketTracking.ticketId,
      userId: ticketTracking.userId,
      finishedAt: ticketTracking.finishedAt,
      userName: users.name,
    })
    .from(ticketTracking)
    .leftJoin(users, and(eq(users.id, ticketTracking.userId), eq(users.companyId, q.companyId)))
    .where(where)
    .orderBy(desc(ticketTracking.finishedAt), desc(ticketTracking.id))
    .limit(size)
    .offset(offset);
  const [{ n }] = await q.db.select({ n: count() }).from(ticketTracking).where(where);
  const ids = [...new Set(rows.map((r) => r.ticketId))];
  const ticketRows = ids.length
    ? await q.db
        .select()
        .from(tickets)
        .where(q.tickets.where(inArray(tickets.id, ids)))
    : [];
  const views = new Map((await presentTickets(q, ticketRows)).map((t) => [t.id, t]));
  return {
    tickets: rows.flatMap((r) => {
      const ticket = views.get(r.ticketId);
      if (!ticket || !r.finishedAt) return [];
      return [
        {
          id: r.id,
          finishedAt: r.finishedAt.toISOString(),
          ticket,
          user: r.userId ? { id: r.userId, name: r.userName ?? "" } : null,
        },
      ];
    }),
    hasMore: toCount(n) > offset + rows.length,
  };
}
