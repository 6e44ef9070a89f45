import type { DashboardClosedPage, DashboardView, TicketsPerHour } from "@charla/contracts";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api } from "./client";

/** The dashboard filter (core §5, §9): mode 1 by date range, mode 2 by preset period. */
export type DashboardQuery = { days: number } | { date_from?: string; date_to?: string };

const keys = {
  all: ["dashboard"] as const,
  view: (f: DashboardQuery) => [...keys.all, "view", f] as const,
  perHour: () => [...keys.all, "per-hour"] as const,
  closed: (f: DashboardQuery) => [...keys.all, "closed", f] as const,
};

/** GET /dashboard: counters and attendants of the period (docs/api-dashboard.md). */
export function useDashboard(filter: DashboardQuery) {
  return useQuery({
    queryKey: keys.view(filter),
    queryFn: ({ signal }) => api<DashboardView>("/dashboard", { query: filter, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /dashboard/tickets-per-hour: today's tickets in 24 buckets, in the company's zone. */
export function useTicketsPerHour() {
  return useQuery({
    queryKey: keys.perHour(),
    queryFn: ({ signal }) => api<TicketsPerHour>("/dashboard/tickets-per-hour", { signal }),
  });
}

/** GET /dashboard/closed-tickets: the period's closed tickets, 20 a page, loaded by scroll. */
export function useDashboardClosed(filter: DashboardQuery) {
  return useInfiniteQuery({
    queryKey: keys.closed(filter),
    queryFn: ({ pageParam, signal }) =>
      api<DashboardClosedPage>("/dashboard/closed-tickets", { query: { ...filter, pageNumber: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}
