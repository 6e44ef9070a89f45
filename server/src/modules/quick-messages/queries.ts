import { Limits, type QuickMessageView, type QuickMessagesPage } from "@charla/contracts";
import { type SQL, asc, count, eq, ilike, or } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { quickMessages } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { type QuickMessageRow, presentQuickMessage } from "./presenter.js";

/** What a user sees: the company's shared replies (geral) and their own. */
export const visibleTo = (userId: number): SQL => or(eq(quickMessages.geral, true), eq(quickMessages.userId, userId)) as SQL;

const order = [asc(quickMessages.shortcode), asc(quickMessages.id)];

/** GET /quick-messages: the visible replies whose shortcode or message holds the search, 20 a page. */
export async function pageQuickMessages(
  q: Scoped,
  userId: number,
  search: string,
  pageNumber: number,
): Promise<QuickMessagesPage> {
  const term = search ? `%${escapeLike(search)}%` : null;
  const where = q.quickMessages.where(
    visibleTo(userId),
    term ? or(ilike(quickMessages.shortcode, term), ilike(quickMessages.message, term)) : undefined,
  );
  const offset = (pageNumber - 1) * Limits.pageSize;
  const [rows, [{ total }]] = await Promise.all([
    q.db
      .select()
      .from(quickMessages)
      .where(where)
      .orderBy(...order)
      .limit(Limits.pageSize)
      .offset(offset),
    q.db.select({ total: count() }).from(quickMessages).where(where),
  ]);
  const n = toCount(total);
  return { records: rows.map(presentQuickMessage), count: n, hasMore: n > offset + rows.length };
}

/** The composer's slash list: the active visible replies, by shortcode. */
export async function composerQuickMessages(q: Scoped, userId: number): Promise<QuickMessageView[]> {
  const rows = await q.db
    .select()
    .from(quickMessages)
    .where(q.quickMessages.where(visibleTo(userId), eq(quickMessages.status, true)))
    .orderBy(...order)
    .limit(500);
  return rows.map(presentQuickMessage);
}

/** A reply the user may see; another user's own one, or another company's, is not found. */
export async function visibleQuickMessage(q: Scoped, userId: number, id: number, lock = false): Promise<QuickMessageRow | null> {
  const query = q.db
    .select()
    .from(quickMessages)
    .where(q.quickMessages.where(eq(quickMessages.id, id), visibleTo(userId)))
    .limit(1);
  const rows = lock ? await query.for("update") : await query;
  return rows[0] ?? null;
}
