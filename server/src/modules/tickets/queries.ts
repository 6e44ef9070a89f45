import { Limits, type QueueRef, type TicketListQuery, type TicketView, normalizeNumber } from "@charla/contracts";
import { type SQL, and, asc, count, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contacts, queues, ticketCounts, tickets, ticketTags } from "../../db/schema/index.js";
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
 * Contact name, number digits or last message contain the text. Written as a union of two indexed
 * lookups (trigram indexes on contacts and on the last message): an OR across the two tables would
 * read every ticket.
 */
function searchCondition(q: Scoped, search: string): SQL | undefined {
  if (!search) return undefined;
  const text = `%${escapeLike(search)}%`;
  // digits are looked up in numbers only when the text is a phone number, not "Cliente 42"
  const digits = /^[\d\s+().-]+$/.test(search) ? normalizeNumber(search) : "";
  const contactMatch = digits
    ? sql`(${contacts.name} ilike ${text} or ${contacts.number} like ${`%${digits}%`})`
    : sql`${contacts.name} ilike ${text}`;
  return sql`${tickets.id} in (
    select t.id from ${tickets} t where t.company_id = ${q.companyId} and t.contact_id in (
      select ${contacts.id} from ${contacts} where ${contacts.companyId} = ${q.companyId} and ${contactMatch})
    union
    select t.id from ${tickets} t where t.company_id = ${q.companyId} and t.last_message ilike ${text})`;
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
function contentConditions(q: Scoped, f: ListQuery): SQL[] {
  return [
    tagsCondition(q, f.tags ?? []),
    f.withUnreadMessages ? sql`${tickets.unreadMessages} > 0` : undefined,
    f.date ? dayRange(tickets.createdAt, f.date) : undefined,
    f.updatedAt ? dayRange(tickets.updatedAt, f.updatedAt) : undefined,
    searchCondition(q, f.searchParam),
  ].filter((c): c is SQL => c !== undefined);
}

export function listConditions(q: Scoped, viewer: Viewer, f: ListQuery): SQL {
  return q.tickets.where(...placementConditions(viewer, f), ...contentConditions(q, f));
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

export async function pageTickets(q: Scoped, viewer: Viewer, f: ListQuery) {
  const where = listConditions(q, viewer, f);
  const size = Limits.ticketsPageSize;
  const offset = (f.pageNumber - 1) * size;
  const [views, total, userQueues] = await Promise.all([
    pageTicketViews(q, where, size, offset),
    countTickets(q, viewer, f, where),
    f.pageNumber === 1 ? filterQueues(q, viewer) : Promise.resolve([]),
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
