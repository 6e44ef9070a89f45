import type { ChatMessageView, ChatView } from "@charla/contracts";
import type { chatMessages, chats } from "../../db/schema/index.js";

export type ChatRow = typeof chats.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
/** A participant row joined with the user's name. */
export type ParticipantRow = { userId: number; unreads: number; name: string };

/** secondary §3 Chat; participants by name, so the list and the dialog read them in a steady order. */
export function presentChat(c: ChatRow, participants: ParticipantRow[]): ChatView {
  return {
    id: c.id,
    uuid: c.uuid,
    title: c.title,
    ownerId: c.ownerId,
    users: [...participants]
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId)
      .map((p) => ({ userId: p.userId, unreads: p.unreads, user: { id: p.userId, name: p.name } })),
    lastMessage: c.lastMessage,
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** secondary §3 ChatMessage; a sender whose user was deleted is null. */
export function presentChatMessage(m: ChatMessageRow, senderName: string | null): ChatMessageView {
  return {
    id: m.id,
    chatId: m.chatId,
    senderId: m.senderId,
    sender: m.senderId !== null && senderName !== null ? { id: m.senderId, name: senderName } : null,
    message: m.message,
    createdAt: m.createdAt.toISOString(),
  };
}
