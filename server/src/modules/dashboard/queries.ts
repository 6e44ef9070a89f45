import type { DashboardAttendant, DashboardView, TicketsPerHour } from "@charla/contracts";
import { type SQL, and, asc, count, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contacts, ticketCounts, tickets, ticketTracking, userRatings, users } from "../../db/schema/index.js";
import type { Period } from "./period.js";

/** Mean minutes of an interval expression, 2 decimals; null over no rows. */
const meanMinutes = (interval: SQL) => sql<string | null>`round((avg(extract(epoch from ${interval})) / 60)::numeric, 2)`;
const toMinutes = (v: string | number | null | undefined) => (v === null || v === undefined ? 0 : Number(v));

/** [start, end) of the period on a timestamp column. */
const within = (column: Parameters<typeof gte>[0], p: Period) => and(gte(column, p.start), lt(column, p.end));

/** supportPending / supportHappening: tickets pending / open right now, whatever the period, from the list's counters. */
async function liveCounts(q: Scoped) {
  const rows = await q.db
    .select({ status: ticketCounts.status, n: sql<number>`coalesce(sum(${ticketCounts.n}), 0)::int` })
    .from(ticketCounts)
    .where(and(eq(ticketCounts.companyId, q.companyId), inArray(ticketCounts.status, ["pending", "open"])))
    .groupBy(ticketCounts.status);
  const of = (status: string) => toCount(rows.find((r) => r.status === status)?.n ?? 0);
  return { supportPending: of("pending"), supportHappening: of("open") };
}

/** supportFinished and avgSupportTime: episodes finished in the period (startedAt → finishedAt). */
async function finishedStats(q: Scoped, p: Period) {
  const [row] = await q.db
    .select({
      n: count(),
      avg: meanMinutes(sql`${ticketTracking.finishedAt} - ${ticketTracking.startedAt}`),
    })
    .from(ticketTracking)
    .where(q.ticketTracking.where(within(ticketTracking.finishedAt, p)));
  return { supportFinished: toCount(row.n), avgSupportTime: toMinutes(row.avg) };
}

/** avgWaitTime: episodes started in the period (queuedAt → startedAt). */
async function waitStats(q: Scoped, p: Period) {
  const [row] = await q.db
    .select({ avg: meanMinutes(sql`${ticketTracking.startedAt} - ${ticketTracking.queuedAt}`) })
    .from(ticketTracking)
    .where(q.ticketTracking.where(within(ticketTracking.startedAt, p), isNotNull(ticketTracking.queuedAt)));
  return { avgWaitTime: toMinutes(row.avg) };
}

/** leads: contacts whose first-ever ticket (group chats aside) began in the period (contacts.first_ticket_at, migration 0020). */
async function leadCount(q: Scoped, p: Period) {
  const [row] = await q.db
    .select({ n: count() })
    .from(contacts)
    .where(q.contacts.where(within(contacts.firstTicketAt, p)));
  return { leads: toCount(row.n) };
}

/** Every agent of the company: episodes finished and their mean time, mean rating, presence. */
async function attendantStats(q: Scoped, p: Period): Promise<DashboardAttendant[]> {
  const work = q.db
    .select({
      userId: sql<number>`${ticketTracking.userId}`.as("work_user_id"),
      finished: count().as("finished"),
      avg: meanMinutes(sql`${ticketTracking.finishedAt} - ${ticketTracking.startedAt}`).as("avg_support"),
    })
    .from(ticketTracking)
    .where(q.ticketTracking.where(within(ticketTracking.finishedAt, p), isNotNull(ticketTracking.userId)))
    .groupBy(ticketTracking.userId)
    .as("work");
  const rates = q.db
    .select({
      userId: sql<number>`${userRatings.userId}`.as("rate_user_id"),
      rating: sql<string | null>`round(avg(${userRatings.rate})::numeric, 2)`.as("rating"),
    })
    .from(userRatings)
    .where(q.userRatings.where(within(userRatings.createdAt, p), isNotNull(userRatings.userId)))
    .groupBy(userRatings.userId)
    .as("rates");
  const rows = await q.db
    .select({
      id: users.id,
      name: users.name,
      online: users.online,
      finished: work.finished,
      avg: work.avg,
      rating: rates.rating,
    })
    .from(users)
    .leftJoin(work, eq(work.userId, users.id))
    .leftJoin(rates, eq(rates.userId, users.id))
    .where(q.users.where())
    .orderBy(asc(users.name), asc(users.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    rating: r.rating === null || r.rating === undefined ? null : Number(r.rating),
    avgSupportTime: toMinutes(r.avg),
    finished: toCount(r.finished ?? 0),
    online: r.online,
  }));
}

/** GET /dashboard: behaviours "Dashboard counters", computed in SQL for one company and period. */
export async function dashboardView(q: Scoped, p: Period): Promise<DashboardView> {
  const [live, finished, wait, leads, attendants] = await Promise.all([
    liveCounts(q),
    finishedStats(q, p),
    waitStats(q, p),
    leadCount(q, p),
    attendantStats(q, p),
  ]);
  return { period: { from: p.from, to: p.to }, counters: { ...live, ...finished, ...wait, ...leads }, attendants };
}

/** Tickets created on one company-zone day, by local hour: always 24 buckets. */
export async function ticketsPerHour(q: Scoped, p: Period): Promise<TicketsPerHour> {
  const hour = sql<number>`extract(hour from ${tickets.createdAt} at time zone ${p.timeZone})::int`;
  const rows = await q.db
    .select({ hour, n: count() })
    .from(tickets)
    .where(q.tickets.where(within(tickets.createdAt, p)))
    .groupBy(sql`1`);
  const byHour = new Map(rows.map((r) => [Number(r.hour), toCount(r.n)]));
  return { date: p.from, hours: Array.from({ length: 24 }, (_, h) => ({ hour: h, count: byHour.get(h) ?? 0 })) };
}
