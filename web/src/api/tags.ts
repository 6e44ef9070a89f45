import type { TagForm, TagsSyncForm, TagView, TicketView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";
import { putTicketInCache } from "./ticket-actions";
import { ticketKeys } from "./tickets";

export type { TagView };

export const tagKeys = {
  all: ["tags"] as const,
  picker: () => ["tags", "picker"] as const,
};

/**
 * core §7 Tags: the Tags page, 20 a page by name. Its events (the spec's "user" channel) also refresh
 * the chat's picker and the tickets showing a changed or deleted tag (see use-company-events).
 */
export const tagCollection = defineCollection<TagView, TagForm>({
  name: "tags",
  path: "/tags",
  pageField: "tags",
  matches: (tag, search) => tag.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => a.name.localeCompare(b.name) || a.id - b.id,
  live: { channel: "tag", item: "tag", idField: "tagId" },
});

/** GET /tags/list: every tag of the company, by name (the chat header's picker). */
export function useTagOptions() {
  return useQuery({
    queryKey: tagKeys.picker(),
    queryFn: ({ signal }) => api<TagView[]>("/tags/list", { signal }),
  });
}

export function useCreateTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: TagForm) => api<TagView>("/tags", { method: "POST", body: values }),
    onSuccess: (tag) => {
      client.setQueryData<TagView[]>(tagKeys.picker(), (tags) =>
        tags ? [...tags, tag].sort((a, b) => a.name.localeCompare(b.name)) : tags,
      );
      void client.invalidateQueries({ queryKey: tagKeys.all });
    },
  });
}

/** POST /tags/sync: the ticket ends up with exactly these tags. */
export function useSyncTags() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: TagsSyncForm) => api<TicketView>("/tags/sync", { method: "POST", body: values }),
    onSuccess: (ticket) => {
      putTicketInCache(client, ticket);
      void client.invalidateQueries({ queryKey: ticketKeys.lists() });
    },
  });
}
