import type { QueueRef } from "@charla/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client";

/** GET /whatsapp as the foundation API lists it (the connections area will bring the full view). */
export type WhatsappRef = { id: number; name: string; status: string; isDefault: boolean };

export function useQueues(enabled = true) {
  return useQuery({
    queryKey: ["queues", "list"],
    queryFn: ({ signal }) => api<QueueRef[]>("/queue", { signal }),
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
