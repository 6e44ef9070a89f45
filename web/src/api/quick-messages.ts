import type { QuickMessageView } from "@charla/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client";

export type { QuickMessageView };

/** GET /quick-messages/list: the company's shared replies and the caller's own, by shortcode. */
export function useQuickMessages(enabled = true) {
  return useQuery({
    queryKey: ["quick-messages", "list"],
    queryFn: ({ signal }) => api<QuickMessageView[]>("/quick-messages/list", { signal }),
    enabled,
    staleTime: 60_000,
  });
}
