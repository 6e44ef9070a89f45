import type { AnnouncementForm, AnnouncementsForMe, AnnouncementView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useOnConnect, useSocketEvent } from "../realtime/context";
import { readBefore } from "../realtime/reads";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { AnnouncementView };

/**
 * secondary §7 Announcements (super users): newest first, 20 a page, searched in title and text;
 * `company-{id}-announcement` keeps the page live.
 */
export const announcementCollection = defineCollection<AnnouncementView, AnnouncementForm>({
  name: "announcements",
  path: "/announcements",
  pageField: "records",
  matches: (a, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || a.title.toLowerCase().includes(needle) || a.text.toLowerCase().includes(needle);
  },
  order: (a, b) => b.id - a.id,
  live: { channel: "announcement", item: "record", idField: "id" },
});

const bellKey = ["announcements", "for-me"] as const;

/**
 * GET /announcements/for-me: the bell's active announcements (highest priority first) and the unread
 * count. Reads are per user and the event carries none, so any event makes it read again.
 */
export function useAnnouncementsForMe() {
  const client = useQueryClient();
  useSocketEvent("announcement", () => void client.invalidateQueries({ queryKey: bellKey }));
  // events are not replayed: a read that began before this join may have missed some
  useOnConnect((join) => void client.invalidateQueries({ queryKey: bellKey, predicate: readBefore(join) }));
  return useQuery({
    queryKey: bellKey,
    queryFn: ({ signal }) => api<AnnouncementsForMe>("/announcements/for-me", { signal }),
  });
}

/** POST /announcements/{id}/read: opened in the reader; the bell's count follows at once. */
export function useMarkAnnouncementRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/announcements/${id}/read`, { method: "POST" }),
    onMutate: (id) => {
      client.setQueryData<AnnouncementsForMe>(bellKey, (data) => {
        const target = data?.records.find((r) => r.id === id);
        if (!data || !target || target.read) return data;
        return {
          unread: Math.max(0, data.unread - 1),
          records: data.records.map((r) => (r.id === id ? { ...r, read: true } : r)),
        };
      });
    },
    onSettled: () => void client.invalidateQueries({ queryKey: bellKey }),
  });
}

/** The image goes up (or away) once the announcement is saved, so a new one gets it too. */
export function useAnnouncementMedia() {
  const client = useQueryClient();
  const changed = (a: AnnouncementView) => {
    announcementCollection.upsert(client, a);
    void client.invalidateQueries({ queryKey: bellKey });
  };
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api<AnnouncementView>(`/announcements/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api<AnnouncementView>(`/announcements/${id}/media-upload`, { method: "DELETE" }),
    onSuccess: changed,
  });
  return { upload, remove };
}
