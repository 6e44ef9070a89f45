import { ChatLimits, type ChatMessagesPage, type ChatView, type ChatsPage } from "@charla/contracts";
import { type SQL, and, count, desc, eq, inArray, sql, sum } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { chatMessages, chatUsers, chats, users } from "../../db/schema/index.js";
import { type ChatRow, type ParticipantRow, presentChat, presentChatMessage } from "./presenter.js";

const CHATS_PAGE = 50;

/** The chat's id or uuid as a condition. */
const byRef = (ref: number | string): SQL => (typeof ref === "number" ? eq(chats.id, ref) : eq(chats.uuid, ref));

/** The user takes part in the chat: the only way any chat is found for them. */
const participates = (q: Scoped, userId: number): SQL =>
  sql`exists (select 1 from ${chatUsers} where ${q.chatUsers.where(eq(chatUsers.chatId, chats.id), eq(chatUsers.userId, userId))})`;

/**
 * A chat the user takes part in, by id or uuid; another company's, or one the user is not in, is not
 * found (the same 404). `lock` serialises changes of one chat.
 */
export async function participantChat(q: Scoped, userId: number, ref: number | string, lock = false): Promise<ChatRow | null> {
  const query = q.db
    .select()
    .from(chats)
    .where(q.chats.where(byRef(ref), participates(q, userId)))
    .limit(1);
  const rows = lock ? await query.for("update") : await query;
  return rows[0] ?? null;
}

/** The participants of some chats with their names, by chat. */
export async function participantsOf(q: Scoped, chatIds: number[]): Promise<Map<number, ParticipantRow[]>> {
  const out = new Map<number, ParticipantRow[]>(chatIds.map((id) => [id, []]));
  if (!chatIds.length) return out;
  const rows = await q.db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, and(eq(users.id, chatUsers.userId), eq(users.companyId, chatUsers.companyId)))
    .where(q.chatUsers.where(inArray(chatUsers.chatId, chatIds)));
  for (const r of rows) out.get(r.chatId)?.push({ userId: r.userId, unreads: r.unreads, name: r.name });
  return out;
}

/** One chat's view. */
export async function chatView(q: Scoped, chat: ChatRow): Promise<ChatView> {
  return presentChat(chat, (await participantsOf(q, [chat.id])).get(chat.id) ?? []);
}

/** GET /chats: the user's chats, latest activity first. */
export async function pageChats(q: Scoped, userId: number, pageNumber: number): Promise<ChatsPage> {
  const where = q.chats.where(participates(q, userId));
  const offset = (pageNumber - 1) * CHATS_PAGE;
  const [rows, [{ total }], unread] = await Promise.all([
    q.db.select().from(chats).where(where).orderBy(desc(chats.updatedAt), desc(chats.id)).limit(CHATS_PAGE).offset(offset),
    q.db.select({ total: count() }).from(chats).where(where),
    unreadTotals(q, [userId]),
  ]);
  const people = await participantsOf(
    q,
    rows.map((r) => r.id),
  );
  const n = toCount(total);
  return {
    records: rows.map((r) => presentChat(r, people.get(r.id) ?? [])),
    count: n,
    hasMore: n > offset + rows.length,
    unreadTotal: unread.get(userId) ?? 0,
  };
}

/** GET /chats/{id}/messages: 20 a page, the newest page first; each page reads oldest to newest. */
export async function pageChatMessages(q: Scoped, chatId: number, pageNumber: number): Promise<ChatMessagesPage> {
  const where = q.chatMessages.where(eq(chatMessages.chatId, chatId));
  const size = ChatLimits.messagesPage;
  const offset = (pageNumber - 1) * size;
  const [rows, [{ total }]] = await Promise.all([
    q.db
      .select({ m: chatMessages, name: users.name })
      .from(chatMessages)
      .leftJoin(users, and(eq(users.id, chatMessages.senderId), eq(users.companyId, chatMessages.companyId)))
      .where(where)
      .orderBy(desc(chatMessages.id))
      .limit(size)
      .offset(offset),
    q.db.select({ total: count() }).from(chatMessages).where(where),
  ]);
  const n = toCount(total);
  return {
    records: rows.reverse().map((r) => presentChatMessage(r.m, r.name)),
    count: n,
    hasMore: n > offset + rows.length,
  };
}

/** Each user's unread messages over all their chats. */
export async function unreadTotals(q: Scoped, userIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(userIds.map((id) => [id, 0]));
  if (!userIds.length) return out;
  const rows = await q.db
    .select({ userId: chatUsers.userId, total: sum(chatUsers.unreads) })
    .from(chatUsers)
    .where(q.chatUsers.where(inArray(chatUsers.userId, userIds)))
    .groupBy(chatUsers.userId);
  for (const r of rows) out.set(r.userId, toCount(r.total ?? 0));
  return out;
}
