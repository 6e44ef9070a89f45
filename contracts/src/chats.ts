import { z } from "zod";
import { IdSchema, V, text } from "./common.js";
import { Limits } from "./limits.js";

/** Longest title, message and participant list a chat keeps (secondary §3 Chat, ChatMessage). */
export const ChatLimits = { title: 120, message: Limits.messageBody.max, users: 500, messagesPage: 20 } as const;

/** A participant as the dialog sends it: its id, or the user object the original client posted ({ id, name }). */
const participant = z.union([IdSchema, z.object({ id: IdSchema }).transform((u) => u.id)]);

/**
 * secondary §5 Chat dialog: a title ('Por favor complete el título de la conversación.') and at least one
 * user ('Por favor seleccione al menos un usuario.'). The owner is always a participant, added by the server.
 */
export const ChatForm = z.object({
  title: text({ error: V.chatTitle }).trim().min(1, V.chatTitle).max(ChatLimits.title, V.tooLong),
  users: z
    .array(participant, { error: V.chatUsers })
    .min(1, V.chatUsers)
    .max(ChatLimits.users, V.invalid)
    .transform((ids) => [...new Set(ids)]),
});
export type ChatForm = z.input<typeof ChatForm>;

/** secondary §5 Chat message: sent only when not blank. */
export const ChatMessageForm = z.object({
  message: text({ error: V.emptyMessage })
    .max(ChatLimits.message, V.tooLong)
    .refine((s) => s.trim().length > 0, V.emptyMessage),
});
export type ChatMessageForm = z.input<typeof ChatMessageForm>;

/**
 * POST /chats/{id}/read: the spec's client sends its own `userId`; it is accepted and ignored, as the
 * call only ever clears the caller's count.
 */
export const ChatReadForm = z.object({ userId: z.unknown().optional() }).nullish();

/** A chat in a path: its numeric id or its uuid (the web's /chats/{uuid}). */
export const ChatRef = z.union([IdSchema, z.uuid({ error: V.invalid })]);
export const ChatParams = z.object({ id: ChatRef });

export const ChatMessagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** A participant with what they have not read yet. */
export type ChatUserView = { userId: number; unreads: number; user: { id: number; name: string } };

/** secondary §3 Chat. */
export type ChatView = {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  users: ChatUserView[];
  lastMessage: string;
  updatedAt: string;
};

/** secondary §3 ChatMessage. */
export type ChatMessageView = {
  id: number;
  chatId: number;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  message: string;
  createdAt: string;
};

/** GET /chats/{id}/messages: newest page first; each page oldest to newest. */
export type ChatMessagesPage = { records: ChatMessageView[]; hasMore: boolean; count: number };

/** GET /chats: the caller's chats, latest activity first, and their unread messages over all of them (the bell). */
export type ChatsPage = { records: ChatView[]; hasMore: boolean; count: number; unreadTotal: number };

/** `company-{id}-chat` (secondary §7), heard only by the chat's participants. */
export type ChatEvent = { action: "create" | "update"; record: ChatView } | { action: "delete"; id: number };

/** `company-{id}-chat-user`: the receiving user's unread counts, per chat and in all. */
export type ChatUserEvent = { action: "update"; chatId: number; unreads: number; total: number };

/** `company-{id}-chat-{chatId}`: a new message in the chat, or the chat itself changed (title, participants, unreads). */
export type ChatOfEvent =
  | { action: "new-message"; message: ChatMessageView; chat: ChatView }
  | { action: "update"; chat: ChatView };
