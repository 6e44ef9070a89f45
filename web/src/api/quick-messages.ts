import type { QuickMessageForm, QuickMessageView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiBlob } from "./client";
import { defineCollection } from "./collection";

export type { QuickMessageView };

/**
 * secondary §7 Quick replies: the shared ones and the caller's own, by shortcode, 20 a page, searched in
 * shortcode and message; `company-{id}-quickemessage` keeps the page and the composer's list live.
 */
export const quickMessageCollection = defineCollection<QuickMessageView, QuickMessageForm>({
  name: "quick-messages",
  path: "/quick-messages",
  pageField: "records",
  matches: (reply, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || reply.shortcode.toLowerCase().includes(needle) || reply.message.toLowerCase().includes(needle);
  },
  order: (a, b) => (a.shortcode < b.shortcode ? -1 : a.shortcode > b.shortcode ? 1 : a.id - b.id),
  live: { channel: "quickMessage", item: "record", idField: "id" },
});

const composerKey = ["quick-messages", "composer"] as const;

/** GET /quick-messages/list: the active shared replies and the caller's own, by shortcode (the slash list). */
export function useQuickMessages(enabled = true) {
  return useQuery({
    queryKey: composerKey,
    queryFn: ({ signal }) => api<QuickMessageView[]>("/quick-messages/list", { signal }),
    enabled,
    // read again each time the list opens a few seconds apart: a reply saved elsewhere shows at once
    staleTime: 5_000,
  });
}

/** Live events keep the page's lists; the composer's list is simply read again next time. */
export function useQuickMessageLiveEvents() {
  const client = useQueryClient();
  quickMessageCollection.useLiveEvents(() => void client.invalidateQueries({ queryKey: composerKey }));
}

/** Saved replies and files change what the composer offers. */
function useAfterChange() {
  const client = useQueryClient();
  return (reply?: QuickMessageView) => {
    if (reply) quickMessageCollection.upsert(client, reply);
    void client.invalidateQueries({ queryKey: composerKey });
  };
}

export function useUploadQuickMessageMedia() {
  const changed = useAfterChange();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api<QuickMessageView>(`/quick-messages/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: (reply) => changed(reply),
  });
}

export function useDeleteQuickMessageMedia() {
  const changed = useAfterChange();
  return useMutation({
    mutationFn: (id: number) => api<QuickMessageView>(`/quick-messages/${id}/media-upload`, { method: "DELETE" }),
    onSuccess: (reply) => changed(reply),
  });
}

/** A reply's file, fetched with the bearer, as a File for the composer's attachment tray. */
export async function quickMessageFile(reply: QuickMessageView): Promise<File> {
  const blob = await apiBlob(`/quick-messages/${reply.id}/media`);
  return new File([blob], reply.mediaName || "file", { type: blob.type || "application/octet-stream" });
}
