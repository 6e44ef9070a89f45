import { Limits, type ContactView, normalizeNumber } from "@charla/contracts";
import { asc, count, gt, ilike, inArray, like, or } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { contacts, whatsapps } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { presentContact } from "./presenter.js";

type ContactRow = typeof contacts.$inferSelect;

/** Connection names for many contacts in one query. */
export async function presentContacts(q: Scoped, rows: ContactRow[]): Promise<ContactView[]> {
  const ids = [...new Set(rows.map((r) => r.whatsappId).filter((x): x is number => x !== null))];
  const named = ids.length
    ? await q.db
        .select({ id: whatsapps.id, name: whatsapps.name })
        .from(whatsapps)
        .where(q.whatsapps.where(inArray(whatsapps.id, ids)))
    : [];
  const byId = new Map(named.map((w) => [w.id, w]));
  return rows.map((r) => presentContact(r, r.whatsappId ? (byId.get(r.whatsappId) ?? null) : null));
}

export async function findContactView(q: Scoped, id: number): Promise<ContactView | null> {
  const row = await q.contacts.findById(id);
  return row ? (await presentContacts(q, [row]))[0] : null;
}

/** Name contains the text, or the number contains its digits. */
function searchCondition(search: string) {
  if (!search) return undefined;
  const digits = normalizeNumber(search);
  return or(ilike(contacts.name, `%${escapeLike(search)}%`), digits ? like(contacts.number, `%${digits}%`) : undefined);
}

/** Contacts page: 20 a page in name order. */
export async function pageContacts(q: Scoped, search: string, pageNumber: number) {
  const where = q.contacts.where(searchCondition(search));
  const offset = (pageNumber - 1) * Limits.pageSize;
  const rows = await q.db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(Limits.pageSize)
    .offset(offset);
  const [{ n }] = await q.db.select({ n: count() }).from(contacts).where(where);
  const total = toCount(n);
  return { contacts: await presentContacts(q, rows), count: total, hasMore: total > offset + rows.length };
}

/** Pickers (new ticket, schedules): up to 50 matches, or the first 50 by name. */
export async function listContacts(q: Scoped, search: string): Promise<ContactView[]> {
  const rows = await q.db
    .select()
    .from(contacts)
    .where(q.contacts.where(searchCondition(search)))
    .orderBy(asc(contacts.name))
    .limit(50);
  return presentContacts(q, rows);
}

/** Every contact of the company for the CSV export, in name order, read in batches. */
export async function* exportContacts(q: Scoped, batch = 1000) {
  let lastId = 0;
  for (;;) {
    const rows = await q.db
      .select({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
      .from(contacts)
      .where(q.contacts.where(gt(contacts.id, lastId)))
      .orderBy(asc(contacts.id))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows;
    lastId = rows[rows.length - 1].id;
  }
}
