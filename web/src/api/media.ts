import { useQuery } from "@tanstack/react-query";
import { useObjectUrl } from "../hooks/use-object-url";
import { apiBlob } from "./client";

/**
 * An image behind the bearer token (an <img src> cannot send it). `version` changes the cache key
 * when the server says the picture changed.
 */
export function useProtectedImage(path: string | null, version?: string | null) {
  const query = useQuery({
    queryKey: ["image", path, version ?? null],
    queryFn: ({ signal }) => apiBlob(path ?? "", { signal }),
    enabled: path !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { url: useObjectUrl(query.data), failed: query.isError, loading: query.isLoading };
}
