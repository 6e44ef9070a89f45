import type { QueueForm, QueueOptionForm, QueueOptionUpdateForm, QueueOptionView, QueueView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

const last = Number.MAX_SAFE_INTEGER;

/** core §7 Queues: every area at once, in the order the chatbot lists them. */
export const queueCollection = defineCollection<QueueView, QueueForm>({
  name: "queues",
  path: "/queue",
  matches: (queue, search) => queue.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => (a.orderQueue ?? last) - (b.orderQueue ?? last) || a.name.localeCompare(b.name),
  live: { channel: "queue", item: "queue", idField: "queueId" },
});

export const queueOptionKeys = {
  all: ["queue-options"] as const,
  children: (queueId: number, parentId: number | null) => ["queue-options", queueId, parentId ?? -1] as const,
};

/** One level of a queue's option tree: the roots (parentId null) or a node's children, in option order. */
export function useQueueOptions(queueId: number, parentId: number | null, enabled = true) {
  return useQuery({
    queryKey: queueOptionKeys.children(queueId, parentId),
    queryFn: ({ signal }) => api<QueueOptionView[]>("/queue-options", { query: { queueId, parentId: parentId ?? -1 }, signal }),
    enabled,
  });
}

/** Adding, editing or deleting an option refetches its level and its parent's (its children count changed). */
export function useSaveQueueOption() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; values: QueueOptionUpdateForm } | { id: null; values: QueueOptionForm }) =>
      input.id === null
        ? api<QueueOptionView>("/queue-options", { method: "POST", body: input.values })
        : api<QueueOptionView>(`/queue-options/${input.id}`, { method: "PUT", body: input.values }),
    onSuccess: (option) => void client.invalidateQueries({ queryKey: [...queueOptionKeys.all, option.queueId] }),
  });
}

export function useDeleteQueueOption() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (option: QueueOptionView) => api<void>(`/queue-options/${option.id}`, { method: "DELETE" }),
    // the siblings were renumbered: the whole tree of that queue is read again
    onSuccess: (_, option) => void client.invalidateQueries({ queryKey: [...queueOptionKeys.all, option.queueId] }),
  });
}
