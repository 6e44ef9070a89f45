import { type SQL, eq, inArray, isNull, ne, or } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { tickets, userQueues, users } from "../db/schema/index.js";

type TicketFacts = { userId: number | null; queueId: number | null };
export type Viewer = { id: number; profile: string; super: boolean; allTicket: string; queueIds: number[] };

/**
 * Who may see a ticket (core §6): staff see every ticket of their company; an agent sees tickets
 * assigned to them, tickets of their own queues, and queue-less tickets when allTicket is enabled.
 */
/** Staff (and super users) see every ticket of their company (core §6). */
export const isStaff = (v: Pick<Viewer, "profile" | "super">) => v.super || v.profile !== "user";

export function canSeeTicket(viewer: Viewer, t: TicketFacts): boolean {
  if (isStaff(viewer)) return true;
  if (t.userId === viewer.id) return true;
  if (t.queueId !== null) return viewer.queueIds.includes(t.queueId);
  return viewer.allTicket === "enable";
}

/** The ids of the company's users who may see the ticket: the recipients of its live events. */
export async function ticketAudience(q: Scoped, t: TicketFacts): Promise<number[]> {
  const agentsOfQueue =
    t.queueId !== null
      ? q.db
          .select({ id: userQueues.userId })
          .from(userQueues)
          .where(q.userQueues.where(eq(userQueues.queueId, t.queueId)))
      : null;
  const rows = await q.db
    .select({ id: users.id })
    .from(users)
    .where(
      q.users.where(
        or(
          ne(users.profile, "user"),
          eq(users.super, true),
          t.userId !== null ? eq(users.id, t.userId) : undefined,
          agentsOfQueue ? inArray(users.id, agentsOfQueue) : eq(users.allTicket, "enable"),
        ),
      ),
    );
  return rows.map((r) => r.id);
}

/** canSeeTicket as a condition on the tickets table, for lists and lookups. */
export function visibleTickets(viewer: Viewer): SQL | undefined {
  if (isStaff(viewer)) return undefined;
  return or(
    eq(tickets.userId, viewer.id),
    viewer.queueIds.length ? inArray(tickets.queueId, viewer.queueIds) : undefined,
    viewer.allTicket === "enable" ? isNull(tickets.queueId) : undefined,
  );
}
