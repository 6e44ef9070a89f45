import { type ContactListItemView, type ContactListView, Limits } from "@charla/contracts";
import { and, asc, count, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contactListItems, contactLists } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";

type ItemRow = typeof contactListItems.$inferSelect;

/** Lists with how many numbers each holds, in name order. */
async function listViews(
  q: Scoped,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<ContactListView[]> {
  const query = q.db
    .select({
      id: contactLists.id,
      name: contactLists.name,
      createdAt: contactLists.createdAt,
      updatedAt: contactLists.updatedAt,
      n: count(contactListItems.id),
    })
    .from(contactLists)
    .leftJoin(
      contactListItems,
      and(eq(contactListItems.companyId, contactLists.companyId), eq(contactListItems.contactListId, contactLists.id)),
    )
    .where(q.contactLists.where(where))
    .groupBy(contactLists.id)
    .orderBy(asc(contactLists.name), asc(contactLists.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map(({ n, createdAt, updatedAt, ...l }) => ({
    ...l,
    contactsCount: toCount(n),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  }));
}

export async function findListView(q: Scoped, id: number): Promise<ContactListView | null> {
  const [view] = await listViews(q, eq(contactLists.id, id));
  return view ?? null;
}

/** Every list, for the campaign dialog's picker (GET /contact-lists/list). */
export function allLists(q: Scoped): Promise<ContactListView[]> {
  return listViews(q, undefined);
}

/** GET /contact-lists: 20 a page, searched by name. */
export async function pageLists(q: Scoped, search: string, pageNumber: number) {
  const where = search ? ilike(contactLists.name, `%${escapeLike(search)}%`) : undefined;
  const size = Limits.pageSize;
  const [records, [{ n }]] = await Promise.all([
    listViews(q, where, { limit: size + 1, offset: (pageNumber - 1) * size }),
    q.db.select({ n: count() }).from(contactLists).where(q.contactLists.where(where)),
  ]);
  return { records: records.slice(0, size), hasMore: records.length > size, count: toCount(n) };
}

export const itemView = (r: ItemRow): ContactListItemView => ({
  id: r.id,
  contactListId: r.contactListId,
  name: r.name,
  number: r.number,
  email: r.email,
  isWhatsappValid: r.isWhatsappValid,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** GET /contact-list-items: one list's numbers, 20 a page, searched by name, number or email. */
export async function pageItems(q: Scoped, listId: number, search: string, pageNumber: number) {
  const like = `%${escapeLike(search)}%`;
  const digits = search.replace(/\D/g, "");
  const matches = search
    ? or(
        ilike(contactListItems.name, like),
        ilike(contactListItems.email, like),
        digits.length >= 3 ? sql`${contactListItems.number} like ${`%${digits}%`}` : undefined,
      )
    : undefined;
  const where = q.contactListItems.where(eq(contactListItems.contactListId, listId), matches);
  const size = Limits.pageSize;
  const [rows, [{ n }]] = await Promise.all([
    q.db
      .select()
      .from(contactListItems)
      .where(where)
      .orderBy(asc(contactListItems.name), asc(contactListItems.id))
      .limit(size + 1)
      .offset((pageNumber - 1) * size),
    q.db.select({ n: count() }).from(contactListItems).where(where),
  ]);
  return { contacts: rows.slice(0, size).map(itemView), hasMore: rows.length > size, count: toCount(n) };
}
