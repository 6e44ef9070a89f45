import { type AnnouncementsForMe, type AnnouncementsPage, Limits } from "@charla/contracts";
import { and, asc, count, desc, eq, ilike, isNotNull, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { toCount } from "../../db/client.js";
import { announcementReads, announcements, companies } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { type AnnouncementRow, presentAnnouncement } from "./presenter.js";

/*
 * Announcements are platform-wide (secondary §2, §6): written by super users, read by every company.
 * So these finders take no company: who may call them is the route's permission (super users manage
 * every announcement; everyone reads the active ones), and a caller's reads are bound to their user id.
 */

/** The bell shows at most this many; the unread count covers every active one. */
const BELL_SIZE = 50;

/** GET /announcements (super users): every announcement whose title or text holds the search, newest first. */
export async function pageAnnouncements(db: Db, search: string, pageNumber: number): Promise<AnnouncementsPage> {
  const term = search ? `%${escapeLike(search)}%` : null;
  const where = term ? or(ilike(announcements.title, term), ilike(announcements.text, term)) : undefined;
  const offset = (pageNumber - 1) * Limits.pageSize;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(announcements)
      .where(where)
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(Limits.pageSize)
      .offset(offset),
    db.select({ total: count() }).from(announcements).where(where),
  ]);
  const n = toCount(total);
  return { records: rows.map(presentAnnouncement), count: n, hasMore: n > offset + rows.length };
}

/**
 * GET /announcements/for-me: the active announcements, highest priority (1) first then newest, each
 * with whether this user has read it, and the unread count over all of them. One statement (the
 * count is a window over the rows before the limit), so the count and the list agree.
 */
export async function announcementsFor(db: Db, userId: number): Promise<AnnouncementsForMe> {
  const read = isNotNull(announcementReads.userId);
  const rows = await db
    .select({
      a: announcements,
      read: sql<boolean>`${read}`,
      unread: sql<number>`count(*) filter (where ${announcementReads.userId} is null) over ()`,
    })
    .from(announcements)
    .leftJoin(
      announcementReads,
      and(eq(announcementReads.announcementId, announcements.id), eq(announcementReads.userId, userId)),
    )
    .where(eq(announcements.status, true))
    .orderBy(asc(announcements.priority), desc(announcements.createdAt), desc(announcements.id))
    .limit(BELL_SIZE);
  return {
    records: rows.map((r) => ({ ...presentAnnouncement(r.a), read: r.read === true })),
    unread: toCount(rows[0]?.unread ?? 0),
  };
}

/** Any announcement, by id (super users). */
export async function findAnnouncement(db: Db | Tx, id: number, lock = false): Promise<AnnouncementRow | null> {
  const query = db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
  const rows = lock ? await query.for("update") : await query;
  return rows[0] ?? null;
}

/** An announcement every user may see: an active one; an inactive one is not found for them. */
export async function findActiveAnnouncement(db: Db | Tx, id: number): Promise<AnnouncementRow | null> {
  const rows = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.id, id), eq(announcements.status, true)))
    .limit(1);
  return rows[0] ?? null;
}

/** Every company: the audience of an announcement's live event. */
export async function everyCompanyId(db: Db | Tx): Promise<number[]> {
  const rows = await db.select({ id: companies.id }).from(companies);
  return rows.map((r) => r.id);
}
