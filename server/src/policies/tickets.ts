import { type BotHoldFacts, heldByBot } from "@charla/contracts";
import { type SQL, and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { type Bind, inline } from "../db/shaped.js";
import type { Scoped } from "../db/scoped.js";
import { AppError } from "../lib/app-error.js";
import { tickets, userQueues, users, whatsappQueues } from "../db/schema/index.js";

/** What visibility reads of a ticket: its placement, and whether the chatbot holds it on which connection. */
export type TicketFacts = {
  userId: number | null;
  queueId: number | null;
  status: string;
  chatbot: boolean;
  whatsappId: number | null;
};
export type Viewer = {
  id: number;
  profile: string;
  super: boolean;
  allTicket: string;
  queueIds: number[];
  /** The connections that serve one of the viewer's queues (whatsapp_queues): their bot's tickets are the viewer's to watch. */
  areaConnectionIds: number[];
};

/**
 * The connections serving one of the user's queues, as an array column of a statement that reads
 * `users` (the principal's, or the viewer's own): through the company's connections, so each lookup
 * is whatsapp_queues' primary key. Written out: a statement without joins names its columns bare.
 */
export const areaConnectionIdsOf = () =>
  sql<number[]>`array(select w.id from whatsapps w where w.company_id = "users"."company_id"
    and exists (select 1 from user_queues uq join whatsapp_queues wq on wq.whatsapp_id = w.id and wq.queue_id = uq.queue_id
      where uq.user_id = "users"."id" and uq.company_id = "users"."company_id") order by 1)`;

/** Staff (and super users) see every ticket of their company (core §6). */
export const isStaff = (v: Pick<Viewer, "profile" | "super">) => v.super || v.profile !== "user";

/**
 * Who may see a ticket (core §6), the one rule behind every read by id, list, message, note, media
 * and live event. Staff see every ticket of their company. An agent sees the tickets assigned to
 * them; an open ticket a colleague is serving is that colleague's alone (show-all is staff's only);
 * any other ticket (pending, closed) when its queue is one of the agent's, or, queue-less, when
 * allTicket is enabled or while the chatbot holds it at the area choice of a connection that serves
 * one of the agent's queues (issue 26: the area's agents watch the bot's conversations, read-only).
 */
export function canSeeTicket(viewer: Viewer, t: TicketFacts): boolean {
  if (isStaff(viewer)) return true;
  if (t.userId === viewer.id) return true;
  if (t.status === "open" && t.userId !== null) return false;
  if (t.queueId !== null) return viewer.queueIds.includes(t.queueId);
  if (viewer.allTicket === "enable") return true;
  return t.chatbot && t.whatsappId !== null && viewer.areaConnectionIds.includes(t.whatsappId);
}

/**
 * An agent may read a ticket the chatbot still serves but not act on it (accept, answer, transfer,
 * resolve) until the bot lets go or the contact stops answering it (contracts/chatbot-hold.ts);
 * staff may take over.
 */
export function assertNotHeldByBot(viewer: Viewer, t: BotHoldFacts): void {
  if (!isStaff(viewer) && heldByBot(t)) throw new AppError("ERR_TICKET_IN_CHATBOT");
}

/**
 * canSeeTicket as a condition on the tickets table, for lists and lookups (undefined: no limit).
 * Its values go to `b`: placeholders when the statement is shaped (db/shaped.ts).
 */
export function visibleTickets(viewer: Viewer, b: Bind = inline): SQL | undefined {
  const placed = placedTickets(viewer, b);
  const watched = botWatchedTickets(viewer, b);
  return watched ? or(placed, watched) : placed;
}

const liveElsewhere = () => or(sql`${tickets.status} <> 'open'`, isNull(tickets.userId));

/**
 * The part of visibleTickets that reads only a ticket's status, queue and assignee: the columns the
 * ticket_counts counters keep, so a count of it is a sum of a few rows (undefined: no limit).
 */
export function placedTickets(viewer: Viewer, b: Bind = inline): SQL | undefined {
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
  return or(own, byQueue ? and(liveElsewhere(), byQueue) : undefined) as SQL;
}

/**
 * The rest of visibleTickets, none of which placedTickets holds: queue-less tickets the chatbot holds
 * on a connection of the viewer's areas, not theirs (undefined: none, e.g. with allTicket, which
 * shows every queue-less ticket already).
 */
export function botWatchedTickets(viewer: Viewer, b: Bind = inline): SQL | undefined {
  if (isStaff(viewer) || viewer.allTicket === "enable" || viewer.areaConnectionIds.length === 0) return undefined;
  b.mark("botWatch");
  return and(
    isNull(tickets.queueId),
    sql`${tickets.chatbot}`,
    b.anyOf(tickets.whatsappId, "viewerConnections", viewer.areaConnectionIds),
    or(isNull(tickets.userId), ne(tickets.userId, b.v("viewerId", viewer.id))),
    liveElsewhere(),
  ) as SQL;
}

/** Whether the ticket is one the chatbot holds at the area choice: its connection's areas' agents watch it. */
const watchedByAreas = (t: TicketFacts): t is TicketFacts & { whatsappId: number } =>
  t.queueId === null && t.chatbot && t.whatsappId !== null;

/**
 * The ids of the company's users who may see the ticket: the recipients of its live events. The
 * query only narrows the candidates (staff, the assignee, the queue's agents or those with
 * allTicket, the agents of the connection's areas while the bot holds it); canSeeTicket decides, so
 * the audience can never disagree with a read by id.
 */
export async function ticketAudience(q: Scoped, t: TicketFacts): Promise<number[]> {
  const agentsOfQueue =
    t.queueId !== null
      ? q.db
          .select({ id: userQueues.userId })
          .from(userQueues)
          .where(q.userQueues.where(eq(userQueues.queueId, t.queueId)))
      : null;
  const agentsOfConnection = watchedByAreas(t)
    ? q.db
        .select({ id: userQueues.userId })
        .from(userQueues)
        .innerJoin(
          whatsappQueues,
          and(eq(whatsappQueues.companyId, userQueues.companyId), eq(whatsappQueues.queueId, userQueues.queueId)),
        )
        .where(q.userQueues.where(eq(whatsappQueues.whatsappId, t.whatsappId)))
    : null;
  const rows = await q.db
    .select({
      id: users.id,
      profile: users.profile,
      super: users.super,
      allTicket: users.allTicket,
      inQueue: agentsOfQueue ? sql<boolean>`${inArray(users.id, agentsOfQueue)}` : sql<boolean>`false`,
      onConnection: agentsOfConnection ? sql<boolean>`${inArray(users.id, agentsOfConnection)}` : sql<boolean>`false`,
    })
    .from(users)
    .where(
      q.users.where(
        or(
          ne(users.profile, "user"),
          eq(users.super, true),
          t.userId !== null ? eq(users.id, t.userId) : undefined,
          agentsOfQueue ? inArray(users.id, agentsOfQueue) : eq(users.allTicket, "enable"),
          agentsOfConnection ? inArray(users.id, agentsOfConnection) : undefined,
        ),
      ),
    );
  return audienceFrom(rows, t);
}

/** Who might see a ticket, with what canSeeTicket decides on; read by ticketAudience or beside the ticket (audienceCandidates). */
export type AudienceCandidate = {
  id: number;
  profile: string;
  super: boolean;
  allTicket: string;
  /** One of the candidate's queues is the ticket's. */
  inQueue: boolean;
  /** One of the candidate's queues is served by the ticket's connection (read only while the bot holds it queue-less). */
  onConnection?: boolean;
};

/** The candidates who may see the ticket: the statement narrows, the policy decides (the same for every reader). */
export function audienceFrom(candidates: AudienceCandidate[], t: TicketFacts): number[] {
  return candidates
    .filter((u) =>
      // the candidate's queues matter only as membership of this ticket's queue, or of its connection's
      canSeeTicket(
        {
          ...u,
          queueIds: u.inQueue && t.queueId !== null ? [t.queueId] : [],
          areaConnectionIds: u.onConnection && t.whatsappId !== null ? [t.whatsappId] : [],
        },
        t,
      ),
    )
    .map((r) => r.id);
}

/**
 * ticketAudience's candidates as a JSON column of a statement that reads `tickets`: the audience comes
 * with the ticket's view in one round trip (an ack, an automatic message) instead of a second one.
 */
export function audienceCandidates(company: SQL | number): SQL<AudienceCandidate[]> {
  return sql<AudienceCandidate[]>`coalesce((
    select json_agg(json_build_object('id', au.id, 'profile', au.profile, 'super', au.super, 'allTicket', au.all_ticket,
      'inQueue', au.in_queue, 'onConnection', au.on_connection))
    from (select ${users.id} as id, ${users.profile} as profile, ${users.super} as super, ${users.allTicket} as all_ticket,
            ${tickets.queueId} is not null and exists (select 1 from ${userQueues} where ${userQueues.companyId} = ${company}
              and ${userQueues.userId} = ${users.id} and ${userQueues.queueId} = ${tickets.queueId}) as in_queue,
            ${tickets.queueId} is null and ${tickets.chatbot} and exists (select 1 from ${userQueues}
              join ${whatsappQueues} on ${whatsappQueues.companyId} = ${userQueues.companyId} and ${whatsappQueues.queueId} = ${userQueues.queueId}
              where ${userQueues.companyId} = ${company} and ${userQueues.userId} = ${users.id}
                and ${whatsappQueues.whatsappId} = ${tickets.whatsappId}) as on_connection
          from ${users} where ${users.companyId} = ${company}) au
    where au.profile <> 'user' or au.super or au.id = ${tickets.userId} or au.in_queue or au.on_connection
       or (${tickets.queueId} is null and au.all_ticket = 'enable')), '[]'::json)`;
}
