import { Ack, type ContactCard, Limits, type MessagesPage, type MessageView, type SharedLocation } from "@charla/contracts";
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useObjectUrl } from "../hooks/use-object-url";
import { api, apiBlob } from "./client";
import { ticketKeys } from "./tickets";

export type { MessagesPage, MessageView };

/** Pages as the API sends them: page 1 holds the newest 20 messages, oldest first (docs/api-inbox.md). */
export type MessagesData = InfiniteData<MessagesPage, number>;

/**
 * The conversation of one ticket. Page 1 without `peek` marks the ticket read on the server, so it is
 * fetched again every time the chat opens (staleTime 0).
 */
export function useMessages(ticketId: number | null) {
  return useInfiniteQuery<MessagesPage, Error, MessagesData, readonly unknown[], number>({
    queryKey: ticketKeys.messages(ticketId ?? 0),
    queryFn: ({ pageParam, signal }) => api<MessagesPage>(`/messages/${ticketId}`, { query: { pageNumber: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: ticketId !== null,
    staleTime: 0,
    retry: false,
  });
}

/** Oldest first, each message once (a page read after new arrivals repeats some of the previous one). */
export function flattenMessages(data: MessagesData | undefined): MessageView[] {
  if (!data) return [];
  const byId = new Map<number, MessageView>();
  for (const page of data.pages) {
    for (const message of page.messages) if (!byId.has(message.id)) byId.set(message.id, message);
  }
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/**
 * A later copy of a message never loses what the earlier one knew: acks only move up (docs/api-inbox.md).
 * A failure is the exception either way (docs/acks.md): reported for a message not yet delivered it
 * lands (Meta's Cloud API says "failed" after "sent"), and a send tried again clears it; which came
 * last is told by `updatedAt`, so a stale copy (a send's answer overtaken by its failure) changes nothing.
 */
export function mergeMessage(current: MessageView, incoming: MessageView): MessageView {
  const newer = incoming.updatedAt >= current.updatedAt;
  let ack = Math.max(current.ack, incoming.ack);
  let ackError = ack === Ack.failed ? (incoming.ackError ?? current.ackError) : null;
  if (incoming.ack === Ack.failed && current.ack <= Ack.server && newer) {
    ack = Ack.failed;
    ackError = incoming.ackError;
  } else if (current.ack === Ack.failed && incoming.ack >= 0 && !newer) {
    ack = Ack.failed;
    ackError = current.ackError;
  }
  return { ...incoming, ack, ackError, isDeleted: current.isDeleted || incoming.isDeleted };
}

function mapMessages(data: MessagesData, message: MessageView): { data: MessagesData; found: boolean } {
  let found = false;
  const pages = data.pages.map((page) => {
    if (!page.messages.some((m) => m.id === message.id)) return page;
    found = true;
    return { ...page, messages: page.messages.map((m) => (m.id === message.id ? mergeMessage(m, message) : m)) };
  });
  return { data: found ? { ...data, pages } : data, found };
}

/** A new message of a loaded conversation (live `create`, or the answer of a send). */
export function addMessageToCache(client: QueryClient, message: MessageView): void {
  client.setQueryData<MessagesData>(ticketKeys.messages(message.ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const mapped = mapMessages(data, message);
    if (mapped.found) return mapped.data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, count: first.count + 1, messages: [...first.messages, message] }, ...rest] };
  });
}

/** A changed message (live `update`: acks, deletions, edits); one not loaded is left for its page. */
export function updateMessageInCache(client: QueryClient, message: MessageView): void {
  client.setQueryData<MessagesData>(ticketKeys.messages(message.ticketId), (data) =>
    data ? mapMessages(data, message).data : data,
  );
}

export type SendMessageInput = {
  ticketId: number;
  body: string;
  quotedMsgId: number | null;
  sign: boolean;
  files: File[];
  /** A location or a contact card instead of text (sent as JSON, never with files). */
  location?: SharedLocation;
  contact?: ContactCard;
};

/**
 * The message's idempotency key: a request repeated with it (a timeout, a double click) finds the
 * message already recorded instead of sending it twice. getRandomValues, not randomUUID, because
 * installs served over plain HTTP on a LAN address are no secure context.
 */
function newClientId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

function sendMessage({ ticketId, body, quotedMsgId, sign, files, location, contact }: SendMessageInput): Promise<MessageView[]> {
  const path = `/messages/${ticketId}`;
  const clientId = newClientId();
  if (files.length === 0) {
    return api<MessageView[]>(path, {
      method: "POST",
      body: { body, quotedMsg: quotedMsgId ? { id: quotedMsgId } : null, sign, clientId, location, contact },
    });
  }
  // docs/api-inbox.md: files in `medias`, the text fields beside them; uploads may take a while (core §9).
  const form = new FormData();
  for (const file of files) form.append("medias", file, file.name);
  form.append("body", body);
  if (quotedMsgId) form.append("quotedMsg", JSON.stringify({ id: quotedMsgId }));
  if (sign) form.append("sign", "true");
  form.append("clientId", clientId);
  return api<MessageView[]>(path, { method: "POST", body: form, signal: AbortSignal.timeout(Limits.uploadTimeoutMs) });
}

export function useSendMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: (messages) => {
      for (const message of messages ?? []) addMessageToCache(client, message);
    },
  });
}

export function useDeleteMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: MessageView) => api<void>(`/messages/${message.id}`, { method: "DELETE" }),
    onSuccess: (_, message) => updateMessageInCache(client, { ...message, isDeleted: true }),
  });
}

/** `mediaUrl` is a full API path ("/api/v1/messages/7/media"); the client adds the prefix itself. */
export function mediaPathOf(mediaUrl: string): string {
  return mediaUrl.replace(/^\/api\/v1(?=\/)/, "");
}

export const mediaKey = (path: string) => ["messages", "media", path] as const;

/** A message's file behind the bearer token, as an object URL (an <img src> cannot send the token). */
export function useMessageMedia(mediaUrl: string | null, enabled = true) {
  const path = mediaUrl ? mediaPathOf(mediaUrl) : null;
  const query = useQuery({
    queryKey: mediaKey(path ?? ""),
    queryFn: ({ signal }) => apiBlob(path ?? "", { signal }),
    enabled: enabled && path !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { url: useObjectUrl(query.data), blob: query.data ?? null, failed: query.isError, loading: query.isLoading };
}

/** Fetches a file on demand (documents are only downloaded when asked for). */
export function fetchMessageMedia(client: QueryClient, mediaUrl: string): Promise<Blob> {
  const path = mediaPathOf(mediaUrl);
  return client.fetchQuery({ queryKey: mediaKey(path), queryFn: () => apiBlob(path), staleTime: Number.POSITIVE_INFINITY });
}
