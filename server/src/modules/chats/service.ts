import { type ChatForm, type ChatMessageForm, type ChatMessageView, type ChatView, V } from "@charla/contracts";
import { and, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { chatUsers, users } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { Publish } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { type ChatRow, presentChatMessage } from "./presenter.js";
import { chatView, participantChat, unreadTotals } from "./queries.js";

type Input = z.output<typeof ChatForm>;
type MessageInput = z.output<typeof ChatMessageForm>;

/** A chat the caller takes part in, locked; not taking part reads as not found. */
async function lockChat(q: Scoped, ctx: RequestCtx, ref: number | string): Promise<ChatRow> {
  return found(await participantChat(q, ctx.user.id, ref, true), "ERR_NOT_FOUND");
}

/** secondary §6: only the chat's owner edits or deletes it. */
function requireOwner(ctx: RequestCtx, chat: ChatRow): void {
  if (chat.ownerId !== ctx.user.id) throw new AppError("ERR_NO_PERMISSION");
}

/** The participants: the chosen users, all of the caller's company, and the owner always. */
async function participantIds(q: Scoped, ownerId: number | null, chosen: number[]): Promise<number[]> {
  const ids = [...new Set(ownerId === null ? chosen : [ownerId, ...chosen])];
  const rows = await q.db
    .select({ id: users.id })
    .from(users)
    .where(q.users.where(inArray(users.id, ids)));
  // another company's user is refused like a missing one, without saying which exists
  if (rows.length !== ids.length) throw new AppError("ERR_VALIDATION", { issues: [{ path: "body.users", message: V.invalid }] });
  return ids;
}

/** The participants whose unread counts changed, each told their new total (nothing when none did). */
async function publishUnreads(q: Scoped, publish: Publish, chatId: number, changed: Map<number, number>) {
  if (!changed.size) return;
  const totals = await unreadTotals(q, [...changed.keys()]);
  const counts = [...changed].map(([userId, unreads]) => ({ userId, unreads, total: totals.get(userId) ?? 0 }));
  await publish({ type: "chat.unreads", companyId: q.companyId, chatId, counts });
}

/** POST /chats: the caller owns it and takes part in it. */
export function createChat(ctx: RequestCtx, input: Input): Promise<ChatView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const ids = await participantIds(q, ctx.user.id, input.users);
    const chat = await q.chats.insert({ title: input.title, ownerId: ctx.user.id });
    await tx.insert(chatUsers).values(ids.map((userId) => ({ companyId: ctx.companyId, chatId: chat.id, userId })));
    const view = await chatView(q, chat);
    const event = { companyId: ctx.companyId, action: "create" as const, chat: view, audience: ids, lost: [] };
    await publish({ type: "chat.changed", ...event });
    return view;
  });
}

/** PUT /chats/{id}: title and participants, by the owner (others 403); the owner always stays. */
export function updateChat(ctx: RequestCtx, ref: number | string, input: Input): Promise<ChatView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = await lockChat(q, ctx, ref);
    requireOwner(ctx, before);
    const ids = await participantIds(q, before.ownerId, input.users);
    const removed = await tx
      .delete(chatUsers)
      .where(q.chatUsers.where(eq(chatUsers.chatId, before.id), notInArray(chatUsers.userId, ids)))
      .returning({ userId: chatUsers.userId, unreads: chatUsers.unreads });
    await tx
      .insert(chatUsers)
      .values(ids.map((userId) => ({ companyId: ctx.companyId, chatId: before.id, userId })))
      .onConflictDoNothing();
    const chat = found(await q.chats.update(before.id, { title: input.title }), "ERR_NOT_FOUND");
    const view = await chatView(q, chat);
    const lost = removed.map((r) => r.userId);
    await publish({
      type: "chat.changed",
      companyId: ctx.companyId,
      action: "update",
      chat: view,
      audience: ids,
      lost,
    });
    // those removed with messages unread: their bell drops them
    await publishUnreads(q, publish, chat.id, new Map(removed.filter((r) => r.unreads > 0).map((r) => [r.userId, 0])));
    return view;
  });
}

/** DELETE /chats/{id}: by the owner (others 403); its messages go with it. */
export function deleteChat(ctx: RequestCtx, ref: number | string): Promise<void> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const chat = await lockChat(q, ctx, ref);
    requireOwner(ctx, chat);
    const members = await tx
      .select({ userId: chatUsers.userId, unreads: chatUsers.unreads })
      .from(chatUsers)
      .where(q.chatUsers.where(eq(chatUsers.chatId, chat.id)));
    await q.chats.delete(chat.id);
    const audience = members.map((m) => m.userId);
    await publish({ type: "chat.deleted", companyId: ctx.companyId, chatId: chat.id, audience });
    await publishUnreads(q, publish, chat.id, new Map(members.filter((m) => m.unreads > 0).map((m) => [m.userId, 0])));
  });
}

/** POST /chats/{id}/read (secondary §4): clears the caller's unread count, whoever the body names. */
export function readChat(ctx: RequestCtx, ref: number | string): Promise<ChatView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const chat = await lockChat(q, ctx, ref);
    const [mine] = await tx
      .update(chatUsers)
      .set({ unreads: 0, updatedAt: new Date() })
      .where(q.chatUsers.where(eq(chatUsers.chatId, chat.id), eq(chatUsers.userId, ctx.user.id), ne(chatUsers.unreads, 0)))
      .returning({ userId: chatUsers.userId });
    const view = await chatView(q, chat);
    if (mine) await publishUnreads(q, publish, chat.id, new Map([[ctx.user.id, 0]]));
    return view;
  });
}

/** POST /chats/{id}/messages: the message, the chat's last message, one more unread for everyone else. */
export function postChatMessage(ctx: RequestCtx, ref: number | string, input: MessageInput): Promise<ChatMessageView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = await lockChat(q, ctx, ref);
    const row = await q.chatMessages.insert({ chatId: before.id, senderId: ctx.user.id, message: input.message });
    const chat = found(await q.chats.update(before.id, { lastMessage: input.message }), "ERR_NOT_FOUND");
    const bumped = await tx
      .update(chatUsers)
      .set({ unreads: sql`${chatUsers.unreads} + 1`, updatedAt: new Date() })
      .where(and(q.chatUsers.where(eq(chatUsers.chatId, chat.id)), ne(chatUsers.userId, ctx.user.id)))
      .returning({ userId: chatUsers.userId, unreads: chatUsers.unreads });
    const view = await chatView(q, chat);
    const message = presentChatMessage(row, ctx.user.name);
    const audience = view.users.map((u) => u.userId);
    await publish({ type: "chat.message", companyId: ctx.companyId, chat: view, message, audience });
    await publishUnreads(q, publish, chat.id, new Map(bumped.map((b) => [b.userId, b.unreads])));
    return message;
  });
}
