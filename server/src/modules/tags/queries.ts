import { Limits, type TagsPage, type TagView } from "@charla/contracts";
import { asc, count, eq, ilike, type SQL } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { escapeLike } from "../../lib/like.js";
import { tags, ticketTags } from "../../db/schema/index.js";

/** Tags with how many tickets carry each, in name order. */
async function tagViews(q: Scoped, where: SQL | undefined, page?: { limit: number; offset: number }): Promise<TagView[]> {
  const query = q.db
    .select({
      id: tags.id,
      name: tags.name,
      color: tags.color,
      kanban: tags.kanban,
      userId: tags.userId,
      n: count(ticketTags.ticketId),
    })
    .from(tags)
    .leftJoin(ticketTags, eq(ticketTags.tagId, tags.id))
    .where(q.tags.where(where))
    .groupBy(tags.id)
    .orderBy(asc(tags.name), asc(tags.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map(({ n, ...t }) => ({ ...t, ticketsCount: toCount(n) }));
}

/** Every tag (the chat's picker, the tags filter). */
export function listTags(q: Scoped): Promise<TagView[]> {
  return tagViews(q, undefined);
}

/** The tags marked kanban (the board's lanes after "Abierto"). */
export function listKanbanTags(q: Scoped): Promise<TagView[]> {
  return tagViews(q, eq(tags.kanban, 1));
}

export async function findTagView(q: Scoped, id: number): Promise<TagView | null> {
  const [view] = await tagViews(q, eq(tags.id, id));
  return view ?? null;
}

/** GET /tags (core §7): 20 a page, searched by name. */
export async function pageTags(q: Scoped, search: string, pageNumber: number): Promise<TagsPage> {
  const where = search ? ilike(tags.name, `%${escapeLike(search)}%`) : undefined;
  const size = Limits.pageSize;
  const [rows, [{ n }]] = await Promise.all([
    tagViews(q, where, { limit: size + 1, offset: (pageNumber - 1) * size }),
    q.db.select({ n: count() }).from(tags).where(q.tags.where(where)),
  ]);
  return { tags: rows.slice(0, size), count: toCount(n), hasMore: rows.length > size };
}
