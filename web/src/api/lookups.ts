import type { QueueView } from "@charla/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client";
import { queueCollection } from "./queues";

/** GET /whatsapp as the foundation API lists it (the connections area will bring the full view). */
export type WhatsappRef = { id: number; name: string; status: string; isDefault: boolean };

/** The company's areas for pickers: the same cache as the Areas page, kept live by its events. */
export function useQueues(enabled = true) {
  return useQuery({
    queryKey: queueCollection.keys.list(""),
    queryFn: ({ signal }) => api<QueueView[]>("/queue", { signal }),
    enabled,
  });
}

export function useWhatsapps(enabled = true) {
  return useQuery({
    queryKey: ["whatsapps", "list"],
    queryFn: ({ signal }) => api<WhatsappRef[]>("/whatsapp", { signal }),
    enabled,
  });
}
