import { Limits, type QueueRef, type TicketListQuery, type TicketView, normalizeNumber } from "@charla/contracts";
import { type SQL, and, asc, count, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contacts, messages, queues, ticketCounts, tickets, ticketTags } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { escapeLike } from "../../lib/like.js";
import { canSeeTicket, visibleTickets } from "../../policies/tickets.js";
import { findTicketWithView, pageTicketViews, presentTickets } from "./presenter.js";
import { isStaff, type Viewer } from "./viewer.js";

type ListQuery = z.output<typeof import("@charla/contracts").TicketListQuery>;
type TicketRow = typeof tickets.$inferSelect;

const dayRange = (column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string) => {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()))
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "date", message: "validation.invalid" }] });
  return and(gte(column, start), lt(column, new Date(start.getTime() + 86_400_000)));
};

/**
 * Matching messages past which a search is "common" (see searchCondition). Below it the matches are
 * few enough to collect; above it, the newest tickets are likely to hold one, and checking them one by
 * one in the list's order finds a page long before collecting every match would end.
 */
export const SEARCH_PROBE = 400;
export type SearchStrategy = "collect" | "walk";

/**
 * A message matches by its words (Spanish and Portuguese stems, accents ignored: "reembolsos" finds
 * "Reembolsó") or by the beginnings of the words typed ("reemb", "447"). Deleted messages never do.
 * The stored vector and its GIN index (migration 0011) answer both.
 */
// the query as a sub-select: computed once per statement. Written inline, a kept (generic) plan would
// build the tsquery again for every message it checks (0.34 ms a ticket on the walk, 28 ms a page)
const messageMatches = (search: string) => sql`not m.is_deleted and m.search @@ (select charla_search_query(${search}))`;

/** How many messages of the company match, counted up to SEARCH_PROBE (an index lookup): decides the strategy. */
export async function searchStrategyFor(q: Scoped, search: string): Promise<SearchStrategy> {
  const [{ n }] = await q.db.select({ n: sql<number>`count(*)::int` }).from(
    sql`(select 1 from ${messages} m where m.company_id = ${q.companyId} and ${messageMatches(search)}
        limit ${sql.raw(String(SEARCH_PROBE))}) as probe`,
  );
  return toCount(n) < SEARCH_PROBE ? "collect" : "walk";
}

/**
 * The contact's name or number digits contain the text (trigram indexes), or any message of the
 * ticket matches.
 * "collect": the matching tickets are gathered from the indexes (few matches). "walk": each ticket the
 * list reaches, newest first, is checked through its own messages (many matches: a page is found in
 * a few dozen tickets, where collecting would read every match).
 */
function searchCondition(q: Scoped, search: string, strategy: SearchStrategy): SQL | undefined {
  if (!search) return undefined;
  const text = `%${escapeLike(search)}%`;
  // digits are looked up in numbers only when the text is a phone number, not "Cliente 42"
  const digits = /^[\d\s+().-]+$/.test(search) ? normalizeNumber(search) : "";
  const contactMatch = digits
    ? sql`(${contacts.name} ilike ${text} or ${contacts.number} like ${`%${digits}%`})`
    : sql`${contacts.name} ilike ${text}`;
  const matchingContacts = sql`select ${contacts.id} from ${contacts} where ${contacts.companyId} = ${q.companyId} and ${contactMatch}`;
  if (strategy === "walk") {
    // "offset 0" keeps the check per ticket: without it the planner turns it into a hash of every
    // match, built before the first row, which is the cost the walk is there to avoid
    return sql`(${tickets.contactId} in (${matchingContacts}) or exists (
      select 1 from ${messages} m where m.company_id = ${q.companyId} and m.ticket_id = ${tickets.id}
        and ${messageMatches(search)} offset 0))`;
  }
  return sql`${tickets.id} in (
    select t.id from ${tickets} t where t.company_id = ${q.companyId} and t.contact_id in (${matchingContacts})
    union
    select m.ticket_id from ${messages} m where m.company_id = ${q.companyId} and ${messageMatches(search)})`;
}

/** Tickets carrying every one of the tags. */
function tagsCondition(q: Scoped, tagIds: number[]): SQL | undefined {
  if (!tagIds.length) return undefined;
  const tagged = q.db
    .select({ ticketId: ticketTags.ticketId })
    .from(ticketTags)
    .where(q.ticketTags.where(inArray(ticketTags.tagId, tagIds)))
    .groupBy(ticketTags.ticketId)
    .having(sql`count(distinct ${ticketTags.tagId}) = ${tagIds.length}`);
  return inArray(tickets.id, tagged);
}

/**
 * The list's conditions (core §6, §7) on a ticket's status, queue and assignee only: what the viewer
 * may see, the tab, the queue and user filters. These alone can be counted from ticket_counts.
 * The open tab shows only the viewer's own tickets unless staff ask for all.
 */
function placementConditions(viewer: Viewer, f: ListQuery): (SQL | undefined)[] {
  const showAll = f.showAll && isStaff(viewer);
  const queueFilter = f.queueIds?.length
    ? or(
        inArray(tickets.queueId, isStaff(viewer) ? f.queueIds : f.queueIds.filter((id) => viewer.queueIds.includes(id))),
        isNull(tickets.queueId),
        eq(tickets.userId, viewer.id),
      )
    : undefined;
  return [
    visibleTickets(viewer),
    f.status ? eq(tickets.status, f.status) : undefined,
    f.status === "open" && !showAll ? eq(tickets.userId, viewer.id) : undefined,
    queueFilter,
    f.users?.length ? inArray(tickets.userId, f.users) : undefined,
  ];
}

/** The filters that need the tickets themselves (tags, unread, dates, search). */
function contentConditions(q: Scoped, f: ListQuery, strategy: SearchStrategy = "collect"): SQL[] {
  return [
    tagsCondition(q, f.tags ?? []),
    f.withUnreadMessages ? sql`${tickets.unreadMessages} > 0` : undefined,
    f.date ? dayRange(tickets.createdAt, f.date) : undefined,
    f.updatedAt ? dayRange(tickets.updatedAt, f.updatedAt) : undefined,
    searchCondition(q, f.searchParam, strategy),
  ].filter((c): c is SQL => c !== undefined);
}

export function listConditions(q: Scoped, viewer: Viewer, f: ListQuery, strategy: SearchStrategy = "collect"): SQL {
  return q.tickets.where(...placementConditions(viewer, f), ...contentConditions(q, f, strategy));
}

/**
 * ticket_counts seen as the tickets table: the same conditions, written once on tickets' columns,
 * apply to it (0 back to null for "no queue" and "nobody"). A few rows per company instead of every ticket.
 */
const countsAsTickets = sql`(select ${ticketCounts.companyId} as company_id, ${ticketCounts.status} as status,
  nullif(${ticketCounts.queueId}, 0) as queue_id, nullif(${ticketCounts.userId}, 0) as user_id, ${ticketCounts.n} as n
  from ${ticketCounts}) as "tickets"`;

/** How many tickets the list holds: from the counters when only placement filters apply, else counted. */
async function countTickets(q: Scoped, viewer: Viewer, f: ListQuery, where: SQL): Promise<number> {
  if (contentConditions(q, f).length > 0) {
    const [{ n }] = await q.db.select({ n: count() }).from(tickets).where(where);
    return toCount(n);
  }
  const placed = q.tickets.where(...placementConditions(viewer, f));
  const [{ n }] = await q.db.select({ n: sql<number>`coalesce(sum(n), 0)::int` }).from(countsAsTickets).where(placed);
  return toCount(n);
}

/** The queues the viewer may filter on: an agent's own, every queue for staff. */
export async function filterQueues(q: Scoped, viewer: Viewer): Promise<QueueRef[]> {
  if (!isStaff(viewer) && viewer.queueIds.length === 0) return [];
  return q.db
    .select({ id: queues.id, name: queues.name, color: queues.color })
    .from(queues)
    .where(q.queues.where(isStaff(viewer) ? undefined : inArray(queues.id, viewer.queueIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
}

/**
 * A page of the list. Its count is exact (from the counters, or counted) except for a search, which
 * would have to read every match to count it: there it is a lower bound, the tickets up to this page
 * plus one when more follow (the search tab shows no count; hasMore is exact).
 */
export async function pageTickets(q: Scoped, viewer: Viewer, f: ListQuery, forced?: SearchStrategy) {
  const size = Limits.ticketsPageSize;
  const offset = (f.pageNumber - 1) * size;
  const queuesOf = () => (f.pageNumber === 1 ? filterQueues(q, viewer) : Promise.resolve([]));
  if (f.searchParam) {
    const strategy = forced ?? (await searchStrategyFor(q, f.searchParam));
    const [found, userQueues] = await Promise.all([
      pageTicketViews(q, listConditions(q, viewer, f, strategy), size + 1, offset),
      queuesOf(),
    ]);
    const hasMore = found.length > size;
    const views = found.slice(0, size);
    return { tickets: views, count: offset + views.length + (hasMore ? 1 : 0), hasMore, userQueues };
  }
  const where = listConditions(q, viewer, f);
  const [views, total, userQueues] = await Promise.all([
    pageTicketViews(q, where, size, offset),
    countTickets(q, viewer, f, where),
    queuesOf(),
  ]);
  return { tickets: views, count: total, hasMore: total > offset + views.length, userQueues };
}

/** A ticket the viewer may see, else 404 (foreign ids included). */
export async function visibleTicket(q: Scoped, viewer: Viewer, by: { id: number } | { uuid: string }): Promise<TicketRow> {
  const [row] = await q.db
    .select()
    .from(tickets)
    .where(q.tickets.where("id" in by ? eq(tickets.id, by.id) : eq(tickets.uuid, by.uuid)))
    .limit(1);
  if (!row || !canSeeTicket(viewer, row)) throw new AppError("ERR_NO_TICKET_FOUND");
  return row;
}

/** visibleTicket with its view, in one statement: for the reads that answer the ticket itself. */
export async function visibleTicketWithView(q: Scoped, viewer: Viewer, by: { id: number } | { uuid: string }) {
  const found = await findTicketWithView(q, q.tickets.where("id" in by ? eq(tickets.id, by.id) : eq(tickets.uuid, by.uuid)));
  if (!found || !canSeeTicket(viewer, found.row)) throw new AppError("ERR_NO_TICKET_FOUND");
  return found;
}

export async function ticketView(q: Scoped, row: TicketRow): Promise<TicketView> {
  const [view] = await presentTickets(q, [row]);
  return view;
}

export type { TicketListQuery };
