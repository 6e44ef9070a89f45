import { Limits, ScheduleLimits, type SchedulesPage, type ScheduleView, type UpcomingSchedules } from "@charla/contracts";
import { and, asc, count, desc, eq, ilike, inArray, lt, or } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contacts, schedules, users } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { type ScheduleRow, type ScheduleWithNames, presentSchedule } from "./presenter.js";

/** The schedules with their contact's and author's names, both of the schedule's company. */
function withNames(q: Scoped) {
  return q.db
    .select({ s: schedules, contactName: contacts.name, contactNumber: contacts.number, userName: users.name })
    .from(schedules)
    .leftJoin(contacts, and(eq(contacts.companyId, schedules.companyId), eq(contacts.id, schedules.contactId)))
    .leftJoin(users, and(eq(users.companyId, schedules.companyId), eq(users.id, schedules.userId)));
}

/**
 * GET /schedules/ (secondary §7): the company's schedules whose text or contact holds the search,
 * the latest time first, 20 a page; `contactId` narrows to one contact (the contact drawer's).
 */
export async function pageSchedules(q: Scoped, search: string, pageNumber: number, contactId?: number): Promise<SchedulesPage> {
  const term = search ? `%${escapeLike(search)}%` : null;
  const where = q.schedules.where(
    term ? or(ilike(schedules.body, term), ilike(contacts.name, term), ilike(contacts.number, term)) : undefined,
    contactId ? eq(schedules.contactId, contactId) : undefined,
  );
  const offset = (pageNumber - 1) * Limits.pageSize;
  const [rows, [{ total }]] = await Promise.all([
    withNames(q).where(where).orderBy(desc(schedules.sendAt), desc(schedules.id)).limit(Limits.pageSize).offset(offset),
    q.db
      .select({ total: count() })
      .from(schedules)
      .leftJoin(contacts, and(eq(contacts.companyId, schedules.companyId), eq(contacts.id, schedules.contactId)))
      .where(where),
  ]);
  const n = toCount(total);
  return { schedules: rows.map(presentSchedule), count: n, hasMore: n > offset + rows.length };
}

const UPCOMING_MAX = 200;

/**
 * GET /schedules/upcoming: what goes out in the next 24 h company-wide, soonest first, with what is
 * overdue and not yet sent (a node was down, a session is not back) at the head of the list.
 */
export async function upcomingSchedules(q: Scoped, now: Date): Promise<UpcomingSchedules> {
  const to = new Date(now.getTime() + ScheduleLimits.upcomingHours * 3_600_000);
  const rows = await withNames(q)
    .where(q.schedules.where(inArray(schedules.status, ["PENDENTE", "ENVIANDO"]), lt(schedules.sendAt, to)))
    .orderBy(asc(schedules.sendAt), asc(schedules.id))
    .limit(UPCOMING_MAX + 1);
  return {
    schedules: rows.slice(0, UPCOMING_MAX).map(presentSchedule),
    hasMore: rows.length > UPCOMING_MAX,
    from: now.toISOString(),
    to: to.toISOString(),
  };
}

/** One schedule of the company, presented; another company's is not found. */
export async function findScheduleView(q: Scoped, id: number): Promise<ScheduleView | null> {
  const [row] = await withNames(q).where(q.schedules.where(eq(schedules.id, id)));
  return row ? presentSchedule(row) : null;
}

/** The row, locked for the caller's transaction (a change, a delete): the sender claims it the same way. */
export async function lockedSchedule(q: Scoped, id: number): Promise<ScheduleRow | null> {
  const [row] = await q.db
    .select()
    .from(schedules)
    .where(q.schedules.where(eq(schedules.id, id)))
    .for("update");
  return row ?? null;
}

/** Rows presented with names, for events. */
export async function presentRows(q: Scoped, ids: number[]): Promise<ScheduleView[]> {
  if (ids.length === 0) return [];
  const rows: ScheduleWithNames[] = await withNames(q).where(q.schedules.where(inArray(schedules.id, ids)));
  return rows.map(presentSchedule);
}
