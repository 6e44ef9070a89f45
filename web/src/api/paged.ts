import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api } from "./client";

/**
 * A searched list read 20 at a time (`searchParam`, `pageNumber` → `hasMore`), the shape every list
 * page of the API shares; the next page is the count of pages loaded plus one.
 */
export function usePagedList<P extends { hasMore: boolean }>(queryKey: readonly unknown[], path: string, search: string) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => api<P>(path, { query: { searchParam: search, pageNumber: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One record by id, fetched only while an id is given. */
export function useRecord<T>(queryKey: readonly unknown[], path: string, id: number | null) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => api<T>(`${path}/${id}`, { signal }),
    enabled: id !== null,
  });
}
