import { Limits, type SearchMode, type SearchPage } from "@charla/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client";

/** GET /search (core §7): contacts and messages, best first; nothing asked under 3 characters. */
export function useGlobalSearch(q: string, mode: SearchMode) {
  const enabled = q.length >= Limits.searchMin;
  return useQuery({
    queryKey: ["search", q, mode],
    queryFn: ({ signal }) => api<SearchPage>("/search", { query: { q, mode, limit: Limits.pageSize }, signal }),
    enabled,
    placeholderData: (previous) => (enabled ? previous : undefined),
    retry: false,
  });
}
