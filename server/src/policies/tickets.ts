import { type SQL, and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { type Bind, inline } from "../db/shaped.js";
import type { Scoped } from "../db/scoped.js";
import { tickets, userQueues, users } from "../db/schema/index.js";

type TicketFacts = { userId: number | null; queueId: number | null; status: string };
export type Viewer = { id: number; profile: string; super: boolean; allTicket: string; queueIds: number[] };

/** Staff (and super users) see every ticket of their company (core §6). */
export const isStaff = (v: Pick<Viewer, "profile" | "super">) => v.super || v.profile !== "user";

/**
 * Who may see a ticket (core §6), the one rule behind every read by id, list, message, note, media
 * and live event. Staff see every ticket of their company. An agent sees the tickets assigned to
 * them; an open ticket a colleague is serving is that colleague's alone (show-all is staff's only);
 * any other ticket (pending, closed) when its queue is one of the agent's, or, queue-less, when
 * allTicket is enabled.
 */
export function canSeeTicket(viewer: Viewer, t: TicketFacts): boolean {
  if (isStaff(viewer)) return true;
  if (t.userId === viewer.id) return true;
  if (t.status === "open" && t.userId !== null) return false;
  if (t.queueId !== null) return viewer.queueIds.includes(t.queueId);
  return viewer.allTicket === "enable";
}

/**
 * canSeeTicket as a condition on the tickets table, for lists and lookups (undefined: no limit).
 * Its values go to `b`: placeholders when the statement is shaped (db/shaped.ts).
 */
export function visibleTickets(viewer: Viewer, b: Bind = inline): SQL | undefined {
  if (isStaff(viewer)) {
    b.mark("staff");
    return undefined;
  }
  const enabled = viewer.allTicket === "enable";
  b.mark(enabled ? "allTicket" : "ownQueues");
  const byQueue = or(
    viewer.queueIds.length ? b.anyOf(tickets.queueId, "viewerQueues", viewer.queueIds) : undefined,
    enabled ? isNull(tickets.queueId) : undefined,
  );
  const own = eq(tickets.userId, b.v("viewerId", viewer.id));
  return or(own, byQueue ? and(or(sql`${tickets.status} <> 'open'`, isNull(tickets.userId)), byQueue) : undefined) as SQL;
}

/**
 * The ids of the company's users who may see the ticket: the recipients of its live events. The
 * query only narrows the candidates (staff, the assignee, the queue's agents or those with
 * allTicket); canSeeTicket decides, so the audience can never disagree with a read by id.
 */
export async function ticketAudience(q: Scoped, t: TicketFacts): Promise<number[]> {
  const agentsOfQueue =
    t.queueId !== null
      ? q.db
          .select({ id: userQueues.userId })
          .from(userQueues)
          .where(q.userQueues.where(eq(userQueues.queueId, t.queueId)))
      : null;
  const rows = await q.db
    .select({
      id: users.id,
      profile: users.profile,
      super: users.super,
      allTicket: users.allTicket,
      inQueue: agentsOfQueue ? sql<boolean>`${inArray(users.id, agentsOfQueue)}` : sql<boolean>`false`,
    })
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
  return audienceFrom(rows, t);
}

/** Who might see a ticket, with what canSeeTicket decides on; read by ticketAudience or beside the ticket (audienceCandidates). */
export type AudienceCandidate = { id: number; profile: string; super: boolean; allTicket: string; inQueue: boolean };

/** The candidates who may see the ticket: the statement narrows, the policy decides (the same for every reader). */
export function audienceFrom(candidates: AudienceCandidate[], t: TicketFacts): number[] {
  return candidates
    .filter((u) =>
      // the candidate's queues matter only as membership of this ticket's queue
      canSeeTicket({ ...u, queueIds: u.inQueue && t.queueId !== null ? [t.queueId] : [] }, t),
    )
    .map((r) => r.id);
}

/**
 * ticketAudience's candidates as a JSON column of a statement that reads `tickets`: the audience comes
 * with the ticket's view in one round trip (an ack, an automatic message) instead of a second one.
 */
export function audienceCandidates(company: SQL | number): SQL<AudienceCandidate[]> {
  return sql<AudienceCandidate[]>`coalesce((
    select json_agg(json_build_object('id', au.id, 'profile', au.profile, 'super', au.super, 'allTicket', au.all_ticket, 'inQueue', au.in_queue))
    from (select ${users.id} as id, ${users.profile} as profile, ${users.super} as super, ${users.allTicket} as all_ticket,
            ${tickets.queueId} is not null and exists (select 1 from ${userQueues} where ${userQueues.companyId} = ${company}
              and ${userQueues.userId} = ${users.id} and ${userQueues.queueId} = ${tickets.queueId}) as in_queue
          from ${users} where ${users.companyId} = ${company}) au
    where au.profile <> 'user' or au.super or au.id = ${tickets.userId} or au.in_queue
       or (${tickets.queueId} is null and au.all_ticket = 'enable')), '[]'::json)`;
}
