import { Limits, type QueueRef, type TicketListQuery, type TicketView, normalizeNumber } from "@charla/contracts";
import { type SQL, and, asc, count, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { type Bind, Binds, shaped } from "../../db/shaped.js";
import { contacts, messages, queues, ticketCounts, tickets, ticketTags } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { escapeLike } from "../../lib/like.js";
import { memoryCache } from "../../lib/memory-cache.js";
import { botWatchedTickets, canSeeTicket, placedTickets, visibleTickets } from "../../policies/tickets.js";
import { findTicketWithView, pageTicketViews, presentTickets } from "./presenter.js";
import { isStaff, type Viewer } from "./viewer.js";

type ListQuery = z.output<typeof import("@charla/contracts").TicketListQuery>;
type TicketRow = typeof tickets.$inferSelect;

const dayRange = (b: Bind, name: string, column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string) => {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()))
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "date", message: "validation.invalid" }] });
  const end = new Date(start.getTime() + 86_400_000);
  return and(gte(column, b.v(`${name}From`, start.toISOString())), lt(column, b.v(`${name}To`, end.toISOString())));
};

/**
 * How a search finds its page (see searchCondition): the newest SEARCH_SAMPLE tickets of the company
 * are checked through their own messages; when at least SEARCH_DENSE of them match, the word is common
 * among recent tickets and the list is walked, else the matches are collected from the indexes.
 * The sample costs a few hundred index lookups whatever the word. Counting the matches instead reads
 * the word's whole posting list (a GIN index is only read as a bitmap): 62 ms for a word in 68k of
 * 1M messages, before the first row.
 */
export const SEARCH_SAMPLE = 200;
export const SEARCH_DENSE = 8;
export type SearchStrategy = "collect" | "walk";

/**
 * A message matches by its words (Spanish and Portuguese stems, accents ignored: "reembolsos" finds
 * "Reembolsó") or by the beginnings of the words typed ("reemb", "447"). Deleted messages never do.
 * The stored vector and its GIN index (migration 0011) answer both.
 */
// the query as a sub-select: computed once per statement. Written inline, a kept (generic) plan would
// build the tsquery again for every message it checks (0.34 ms a ticket on the walk, 28 ms a page)
const messageMatches = (b: Bind, search: string) =>
  sql`not m.is_deleted and m.search @@ (select charla_search_query(${b.v("search", search)}))`;

/**
 * A word's strategy, kept for a while per company: the next pages, the other tabs and the live
 * refreshes of one search ask again. Either strategy answers the same page; this only saves the sample.
 */
const chosen = memoryCache(30_000, 2_000);

export async function searchStrategyFor(q: Scoped, search: string): Promise<SearchStrategy> {
  const key = `${q.companyId}\u0000${search}`;
  const kept = chosen.get<SearchStrategy>(key);
  if (kept) return kept;
  const strategy = await sampleStrategy(q, search);
  chosen.set(key, strategy);
  return strategy;
}

/** Whether the word is common among the company's newest tickets. */
export async function sampleStrategy(q: Scoped, search: string): Promise<SearchStrategy> {
  const b = new Binds();
  const company = b.v("companyId", q.companyId);
  const matches = messageMatches(b, search);
  const [{ n }] = await shaped(q.db, "tickets.searchSample", b, () =>
    q.db.select({ n: sql<number>`count(*)::int` }).from(
      sql`(select t.id from ${tickets} t where t.company_id = ${company}
          order by t.updated_at desc, t.id desc limit ${sql.raw(String(SEARCH_SAMPLE))}) as sample
        where exists (select 1 from ${messages} m where m.company_id = ${company} and m.ticket_id = sample.id and ${matches})`,
    ),
  );
  return toCount(n) >= SEARCH_DENSE ? "walk" : "collect";
}

/**
 * The contact's name or number digits contain the text, or any message of the ticket matches.
 * "collect": the matching tickets are gathered from the indexes (few matches). "walk": each ticket the
 * list reaches, newest first, is checked through its own contact and messages (many matches: a page
 * is found in a few dozen tickets, where collecting would read every match, and every contact's name).
 */
function searchCondition(b: Bind, companyId: number, search: string, strategy: SearchStrategy): SQL | undefined {
  if (!search) return undefined;
  b.mark(strategy);
  const company = b.v("companyId", companyId);
  const text = b.v("searchText", `%${escapeLike(search)}%`);
  // digits are looked up in numbers only when the text is a phone number, not "Cliente 42"
  const digits = /^[\d\s+().-]+$/.test(search) ? normalizeNumber(search) : "";
  const contactMatch = digits
    ? sql`(${contacts.name} ilike ${text} or ${contacts.number} like ${b.v("searchDigits", `%${digits}%`)})`
    : sql`${contacts.name} ilike ${text}`;
  if (strategy === "walk") {
    // "offset 0" keeps each check per ticket: without it the planner turns it into a hash of every
    // match (every contact's name read, every matching message), built before the first row, which
    // is the cost the walk is there to avoid
    return sql`(exists (select 1 from ${contacts} where ${contacts.companyId} = ${company}
        and ${contacts.id} = ${tickets.contactId} and ${contactMatch} offset 0)
      or exists (select 1 from ${messages} m where m.company_id = ${company} and m.ticket_id = ${tickets.id}
        and ${messageMatches(b, search)} offset 0))`;
  }
  const matchingContacts = sql`select ${contacts.id} from ${contacts} where ${contacts.companyId} = ${company} and ${contactMatch}`;
  return sql`${tickets.id} in (
    select t.id from ${tickets} t where t.company_id = ${company} and t.contact_id in (${matchingContacts})
    union
    select m.ticket_id from ${messages} m where m.company_id = ${company} and ${messageMatches(b, search)})`;
}

/** Tickets carrying every one of the tags. */
function tagsCondition(b: Bind, companyId: number, tagIds: number[]): SQL | undefined {
  if (!tagIds.length) return undefined;
  const distinct = [...new Set(tagIds)];
  return sql`${tickets.id} in (select ${ticketTags.ticketId} from ${ticketTags}
    where ${ticketTags.companyId} = ${b.v("companyId", companyId)} and ${b.anyOf(ticketTags.tagId, "tags", distinct)}
    group by ${ticketTags.ticketId} having count(distinct ${ticketTags.tagId}) = ${b.v("tagCount", distinct.length)})`;
}

type Visibility = (viewer: Viewer, b: Bind) => SQL | undefined;

/**
 * The list's conditions (core §6, §7): what the viewer may see, the tab, the queue and user filters.
 * Apart from `visible`'s bot part (policies/tickets.ts placedTickets) they read a ticket's company,
 * status, queue and assignee only, and can be counted from ticket_counts. The open tab shows only the
 * viewer's own tickets unless staff ask for all.
 */
function placementConditions(
  b: Bind,
  companyId: number,
  viewer: Viewer,
  f: ListQuery,
  visible: Visibility = visibleTickets,
): (SQL | undefined)[] {
  const showAll = f.showAll && isStaff(viewer);
  const ownOnly = f.status === "open" && !showAll;
  // an agent's viewerId is bound by the visibility already: the open tab's own-only condition adds no
  // name, so it is marked, or the open and pending tabs would share one statement text
  if (ownOnly) b.mark("ownOnly");
  const queueFilter = f.queueIds?.length
    ? or(
        b.anyOf(
          tickets.queueId,
          "queueIds",
          isStaff(viewer) ? f.queueIds : f.queueIds.filter((id) => viewer.queueIds.includes(id)),
        ),
        isNull(tickets.queueId),
        eq(tickets.userId, b.v("viewerId", viewer.id)),
      )
    : undefined;
  return [
    eq(tickets.companyId, b.v("companyId", companyId)),
    visible(viewer, b),
    f.status ? eq(tickets.status, b.v("status", f.status)) : undefined,
    ownOnly ? eq(tickets.userId, b.v("viewerId", viewer.id)) : undefined,
    queueFilter,
    f.users?.length ? b.anyOf(tickets.userId, "users", f.users) : undefined,
  ];
}

/** The filters that need the tickets themselves (tags, unread, dates, search). */
function contentConditions(b: Bind, companyId: number, f: ListQuery, strategy: SearchStrategy = "collect"): SQL[] {
  if (f.withUnreadMessages) b.mark("unread");
  return [
    tagsCondition(b, companyId, f.tags ?? []),
    f.withUnreadMessages ? sql`${tickets.unreadMessages} > 0` : undefined,
    f.date ? dayRange(b, "created", tickets.createdAt, f.date) : undefined,
    f.updatedAt ? dayRange(b, "updated", tickets.updatedAt, f.updatedAt) : undefined,
    searchCondition(b, companyId, f.searchParam, strategy),
  ].filter((c): c is SQL => c !== undefined);
}

const hasContentFilters = (f: ListQuery) =>
  Boolean(f.tags?.length || f.withUnreadMessages || f.date || f.updatedAt || f.searchParam);

export function listConditions(
  b: Bind,
  companyId: number,
  viewer: Viewer,
  f: ListQuery,
  strategy: SearchStrategy = "collect",
): SQL {
  return and(...placementConditions(b, companyId, viewer, f), ...contentConditions(b, companyId, f, strategy)) as SQL;
}

/**
 * ticket_counts seen as the tickets table: the same conditions, written once on tickets' columns,
 * apply to it (0 back to null for "no queue" and "nobody"). A few rows per company instead of every ticket.
 */
const countsAsTickets = sql`(select ${ticketCounts.companyId} as company_id, ${ticketCounts.status} as status,
  nullif(${ticketCounts.queueId}, 0) as queue_id, nullif(${ticketCounts.userId}, 0) as user_id, ${ticketCounts.n} as n
  from ${ticketCounts}) as "tickets"`;

/**
 * How many tickets the list holds: from the counters when only placement filters apply, else counted.
 * The chatbot's tickets an agent watches (a flag the counters do not keep) are counted apart from the
 * tickets, and added: the two parts of the rule never hold the same ticket.
 */
async function countTickets(q: Scoped, viewer: Viewer, f: ListQuery): Promise<number> {
  const b = new Binds();
  if (hasContentFilters(f)) {
    const where = listConditions(b, q.companyId, viewer, f);
    const [{ n }] = await shaped(q.db, "tickets.count", b, () => q.db.select({ n: count() }).from(tickets).where(where));
    return toCount(n);
  }
  const placed = and(...placementConditions(b, q.companyId, viewer, f, placedTickets));
  const wb = new Binds();
  const watched = botWatchedTickets(viewer)
    ? (and(...placementConditions(wb, q.companyId, viewer, f, botWatchedTickets)) as SQL)
    : null;
  const [[{ n }], extra] = await Promise.all([
    shaped(q.db, "tickets.countPlaced", b, () =>
      q.db.select({ n: sql<number>`coalesce(sum(n), 0)::int` }).from(countsAsTickets).where(placed),
    ),
    watched
      ? shaped(q.db, "tickets.countBotWatched", wb, () => q.db.select({ n: count() }).from(tickets).where(watched))
      : Promise.resolve([{ n: 0 }]),
  ]);
  return toCount(n) + toCount(extra[0].n);
}

/** The queues the viewer may filter on: an agent's own, every queue for staff. */
export async function filterQueues(q: Scoped, viewer: Viewer): Promise<QueueRef[]> {
  if (!isStaff(viewer) && viewer.queueIds.length === 0) return [];
  const b = new Binds();
  const where = and(
    eq(queues.companyId, b.v("companyId", q.companyId)),
    isStaff(viewer) ? undefined : b.anyOf(queues.id, "queueIds", viewer.queueIds),
  );
  return shaped(q.db, "tickets.filterQueues", b, () =>
    q.db
      .select({ id: queues.id, name: queues.name, color: queues.color })
      .from(queues)
      .where(where)
      .orderBy(asc(queues.orderQueue), asc(queues.name)),
  );
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
  const page = (limit: number, strategy?: SearchStrategy) => {
    const b = new Binds();
    return pageTicketViews(q, b, listConditions(b, q.companyId, viewer, f, strategy), limit, offset);
  };
  if (f.searchParam) {
    const strategy = forced ?? (await searchStrategyFor(q, f.searchParam));
    const [found, userQueues] = await Promise.all([page(size + 1, strategy), queuesOf()]);
    const hasMore = found.length > size;
    const views = found.slice(0, size);
    return { tickets: views, count: offset + views.length + (hasMore ? 1 : 0), hasMore, userQueues };
  }
  const [views, total, userQueues] = await Promise.all([page(size), countTickets(q, viewer, f), queuesOf()]);
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
  const b = new Binds();
  const where = and(
    eq(tickets.companyId, b.v("companyId", q.companyId)),
    "id" in by ? eq(tickets.id, b.v("id", by.id)) : eq(tickets.uuid, b.v("uuid", by.uuid)),
  ) as SQL;
  const found = await findTicketWithView(q, b, where);
  if (!found || !canSeeTicket(viewer, found.row)) throw new AppError("ERR_NO_TICKET_FOUND");
  return found;
}

export async function ticketView(q: Scoped, row: TicketRow): Promise<TicketView> {
  const [view] = await presentTickets(q, [row]);
  return view;
}

export type { TicketListQuery };
