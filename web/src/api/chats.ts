import type { ChatForm, ChatMessageView, ChatMessagesPage, ChatView, ChatsPage, UserView } from "@charla/contracts";
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useSocketEvent } from "../realtime/context";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { ChatMessageView, ChatView };

/**
 * secondary §7 Internal chat: the caller's chats, latest activity first; `company-{id}-chat` (heard by
 * participants only) keeps the list, the page and the bell live.
 */
export const chatCollection = defineCollection<ChatView, ChatForm>({
  name: "chats",
  path: "/chats",
  pageField: "records",
  matches: () => true,
  order: (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id,
  live: { channel: "chat", item: "record", idField: "id" },
});

/** A user's unread count in a chat. */
export const unreadsOf = (chat: ChatView, userId: number | undefined): number =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/**
 * One user's count in every cached copy of a chat (the list pages and its detail), and their total
 * over all chats when the server said it (`chat-user`), kept on the list's first page as GET /chats gave it.
 */
function setUnreads(client: QueryClient, chatId: number, userId: number, unreads: number, total?: number): void {
  const patch = (chat: ChatView): ChatView =>
    chat.id !== chatId ? chat : { ...chat, users: chat.users.map((u) => (u.userId === userId ? { ...u, unreads } : u)) };
  client.setQueriesData<InfiniteData<ChatsPage, number>>({ queryKey: chatCollection.keys.lists() }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page, i) => ({
            ...page,
            records: page.records.map(patch),
            ...(i === 0 && total !== undefined ? { unreadTotal: total } : {}),
          })),
        }
      : data,
  );
  client.setQueryData<ChatView>(chatCollection.keys.detail(chatId), (chat) => (chat ? patch(chat) : chat));
}

/**
 * The live chat channels for the whole signed-in shell (the bell is always there): chats created,
 * changed or left, and this user's unread counts (`chat-user`); `onUnread` hears each count that grew.
 */
export function useChatLiveEvents(userId: number | undefined, onUnread?: (chatId: number, unreads: number) => void) {
  const client = useQueryClient();
  chatCollection.useLiveEvents((event) => {
    // a chat deleted, or left: the one open by its uuid is asked for again, and is then not found
    if (event.action === "delete") void client.invalidateQueries({ queryKey: ["chats", "uuid"] });
  });
  useSocketEvent("chatUser", (event) => {
    if (userId === undefined) return;
    setUnreads(client, event.chatId, userId, event.unreads, event.total);
    if (event.unreads > 0) onUnread?.(event.chatId, event.unreads);
  });
}

/** The user's unread chat messages over all their chats (the bell), also those beyond the loaded pages. */
export function chatUnreadTotal(client: QueryClient): number | undefined {
  return client.getQueryData<InfiniteData<ChatsPage, number>>(chatCollection.keys.list(""))?.pages[0]?.unreadTotal;
}

/** GET /chats/{uuid}: the chat on screen, found by its uuid as the route names it. */
export function useChatByUuid(uuid: string | undefined) {
  return useQuery({
    queryKey: ["chats", "uuid", uuid ?? ""] as const,
    queryFn: ({ signal }) => api<ChatView>(`/chats/${uuid}`, { signal }),
    enabled: !!uuid,
    retry: false,
  });
}

const messagesKey = (chatId: number) => ["chats", "messages", chatId] as const;

/** GET /chats/{id}/messages: pages newest first; `messages` reads oldest to newest for the screen. */
export function useChatMessages(chatId: number | null) {
  const query = useInfiniteQuery({
    queryKey: messagesKey(chatId ?? 0),
    queryFn: ({ pageParam, signal }) =>
      api<ChatMessagesPage>(`/chats/${chatId}/messages`, { query: { pageNumber: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: chatId !== null,
  });
  const seen = new Set<number>();
  const messages = [...(query.data?.pages ?? [])]
    .reverse()
    .flatMap((page) => page.records)
    .filter((m) => !seen.has(m.id) && seen.add(m.id));
  return { ...query, messages };
}

/** A message into the open chat's first page (live or just sent), once. */
function addMessage(client: QueryClient, message: ChatMessageView): void {
  client.setQueryData<InfiniteData<ChatMessagesPage, number>>(messagesKey(message.chatId), (data) => {
    if (!data || data.pages.some((page) => page.records.some((m) => m.id === message.id))) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, records: [...first.records, message], count: first.count + 1 }, ...rest] };
  });
}

/** `company-{id}-chat-{chatId}`: the open chat's new messages and its changes. */
export function useOpenChatEvents(chatId: number | null, onMessage: (message: ChatMessageView) => void) {
  const client = useQueryClient();
  useSocketEvent(
    chatId === null ? null : "chatOf",
    (event) => {
      chatCollection.upsert(client, event.chat);
      if (event.action === "new-message") {
        addMessage(client, event.message);
        onMessage(event.message);
      }
    },
    chatId ?? 0,
  );
}

export function useSendChatMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, message }: { chatId: number; message: string }) =>
      api<ChatMessageView>(`/chats/${chatId}/messages`, { method: "POST", body: { message } }),
    onSuccess: (message) => addMessage(client, message),
  });
}

/** POST /chats/{id}/read: opening a chat clears the caller's count (secondary §4). */
export function useReadChat(userId: number | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chatId: number) => api<ChatView>(`/chats/${chatId}/read`, { method: "POST", body: { userId } }),
    onSuccess: (chat) => {
      if (userId !== undefined) setUnreads(client, chat.id, userId, 0);
    },
  });
}

/** The dialog's participants: the company's users (GET /users/list, the same cache as the ticket pickers). */
export function useChatUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ["users", "picker"] as const,
    queryFn: ({ signal }) => api<UserView[]>("/users/list", { signal }),
    enabled,
  });
}
