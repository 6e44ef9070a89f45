import { Limits, type QueueRef, type UserView } from "@charla/contracts";
import { asc, count, eq, ilike, inArray, or } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { queues, userQueues, users, whatsapps } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { presentUser } from "./presenter.js";

type UserRow = typeof users.$inferSelect;

/** Queues and default connection for many users in two queries (no N+1). */
export async function presentUsers(q: Scoped, rows: UserRow[]): Promise<UserView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const queueRows = await q.db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(q.userQueues.where(inArray(userQueues.userId, ids)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  const byUser = new Map<number, QueueRef[]>();
  for (const r of queueRows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color });
    byUser.set(r.userId, list);
  }
  const wIds = [...new Set(rows.map((r) => r.whatsappId).filter((x): x is number => x !== null))];
  const wRows = wIds.length
    ? await q.db
        .select({ id: whatsapps.id, name: whatsapps.name })
        .from(whatsapps)
        .where(q.whatsapps.where(inArray(whatsapps.id, wIds)))
    : [];
  const wById = new Map(wRows.map((w) => [w.id, w]));
  return rows.map((u) =>
    presentUser(u, { queues: byUser.get(u.id) ?? [], whatsapp: u.whatsappId ? (wById.get(u.whatsappId) ?? null) : null }),
  );
}

/** The users who work in a queue: their views list it, so they change when it goes. */
export async function queueMemberIds(q: Scoped, queueId: number): Promise<number[]> {
  const rows = await q.db
    .select({ userId: userQueues.userId })
    .from(userQueues)
    .where(q.userQueues.where(eq(userQueues.queueId, queueId)));
  return rows.map((r) => r.userId);
}

export async function userViewsByIds(q: Scoped, ids: number[]): Promise<UserView[]> {
  if (ids.length === 0) return [];
  const rows = await q.db
    .select()
    .from(users)
    .where(q.users.where(inArray(users.id, ids)))
    .orderBy(asc(users.id));
  return presentUsers(q, rows);
}

export async function findUserView(q: Scoped, id: number): Promise<UserView | null> {
  const row = await q.users.findById(id);
  return row ? (await presentUsers(q, [row]))[0] : null;
}

/** Users page: name or email contains the search; 20 a page in name order. */
export async function pageUsers(q: Scoped, search: string, pageNumber: number) {
  const term = search ? `%${escapeLike(search)}%` : null;
  const where = q.users.where(term ? or(ilike(users.name, term), ilike(users.email, term)) : undefined);
  const offset = (pageNumber - 1) * Limits.pageSize;
  const [rows, [{ total }]] = await Promise.all([
    q.db.select().from(users).where(where).orderBy(asc(users.name), asc(users.id)).limit(Limits.pageSize).offset(offset),
    q.db.select({ total: count() }).from(users).where(where),
  ]);
  const n = toCount(total);
  return { users: await presentUsers(q, rows), count: n, hasMore: n > offset + rows.length };
}

export async function listAllUsers(q: Scoped): Promise<UserView[]> {
  const rows = await q.db.select().from(users).where(q.users.where()).orderBy(asc(users.name));
  return presentUsers(q, rows);
}
