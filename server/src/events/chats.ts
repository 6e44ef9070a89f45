import type { ChatMessageView, ChatView } from "@charla/contracts";

/** One participant's unread counts after a change: in the chat, and over all their chats. */
export type ChatUnreads = { userId: number; unreads: number; total: number };

/**
 * Internal chat (secondary §2, §7). Every event names its participants: a user not in a chat never
 * hears its title or its messages, so nothing here goes to the whole company.
 */
export type ChatEvents = {
  /** A chat created or changed: `audience` are its participants now, `lost` those just removed from it. */
  "chat.changed": { companyId: number; action: "create" | "update"; chat: ChatView; audience: number[]; lost: number[] };
  /** A chat deleted: its participants drop it. */
  "chat.deleted": { companyId: number; chatId: number; audience: number[] };
  /** A message posted in a chat, to its participants. */
  "chat.message": { companyId: number; chat: ChatView; message: ChatMessageView; audience: number[] };
  /** Participants whose unread counts changed (a message, a read, a removal), each told their own. */
  "chat.unreads": { companyId: number; chatId: number; counts: ChatUnreads[] };
};
