import { QueryClient } from "@tanstack/react-query";
import { trackReads } from "../realtime/reads";
import { ApiError } from "./client";

/** Client errors (4xx) are answers, not hiccups: only server and network failures are retried. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failureCount < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
// live lists are read again after a join of the socket only if their read began before it
trackReads(queryClient);
