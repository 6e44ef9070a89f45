import type { ScheduleForm, ScheduleView, UpcomingSchedules } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { ScheduleView };

/**
 * secondary §7 Schedules: the company's scheduled messages, latest time first, 20 a page, searched in
 * the text and the contact; `company-{id}-schedule` keeps the page and the next-24 h view live.
 */
export const scheduleCollection = defineCollection<ScheduleView, ScheduleForm>({
  name: "schedules",
  path: "/schedules",
  pageField: "schedules",
  matches: (s, search) => {
    const needle = search.trim().toLowerCase();
    return (
      !needle ||
      s.body.toLowerCase().includes(needle) ||
      (s.contact?.name.toLowerCase().includes(needle) ?? false) ||
      (s.contact?.number.includes(needle) ?? false)
    );
  },
  order: (a, b) => (a.sendAt > b.sendAt ? -1 : a.sendAt < b.sendAt ? 1 : b.id - a.id),
  live: { channel: "schedule", item: "record", idField: "id" },
});

const upcomingKey = ["schedules", "upcoming"] as const;

/** GET /schedules/upcoming: what goes out in the next 24 h, company-wide. */
export function useUpcomingSchedules(enabled = true) {
  return useQuery({
    queryKey: upcomingKey,
    queryFn: ({ signal }) => api<UpcomingSchedules>("/schedules/upcoming", { signal }),
    enabled,
    // the window moves with the clock: read again each minute while shown
    refetchInterval: 60_000,
  });
}

/** Live events keep the list; the next-24 h view is read again. */
export function useScheduleLiveEvents() {
  const client = useQueryClient();
  scheduleCollection.useLiveEvents(() => void client.invalidateQueries({ queryKey: upcomingKey }));
}

function useAfterChange() {
  const client = useQueryClient();
  return (s: ScheduleView) => {
    scheduleCollection.upsert(client, s);
    void client.invalidateQueries({ queryKey: upcomingKey });
  };
}

export function useUploadScheduleMedia() {
  const changed = useAfterChange();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api<ScheduleView>(`/schedules/${id}/media-upload`, { method: "POST", body: form });
    },
    onSuccess: changed,
  });
}

export function useDeleteScheduleMedia() {
  const changed = useAfterChange();
  return useMutation({
    mutationFn: (id: number) => api<ScheduleView>(`/schedules/${id}/media-upload`, { method: "DELETE" }),
    onSuccess: changed,
  });
}

export function useCancelSchedule() {
  const changed = useAfterChange();
  return useMutation({
    mutationFn: (id: number) => api<ScheduleView>(`/schedules/${id}/cancel`, { method: "POST" }),
    onSuccess: changed,
  });
}
