import type { SessionUser, TicketStatus, TicketsPage } from "@charla/contracts";
import { api } from "./client";

/*
 * The ticket lists' requests, without React or the query cache: a page load asks for the first page
 * of the inbox's lists with these as soon as the session is back (pages/tickets/prefetch.ts), before
 * the rest of the app's code has even run, and the lists' queries (api/tickets.ts) take that answer.
 */

/** One list's filters; it is also the list's query key (`ticketKeys.list(filters)`). */
export type TicketListFilters = {
  /** Absent in the search tab: every status. */
  status?: TicketStatus;
  searchParam: string;
  queueIds: number[];
  tags: number[];
  users: number[];
  showAll: boolean;
  withUnreadMessages: boolean;
};

/** Who is looking: decides which `update` events belong in the open tab (docs/api-inbox.md). */
export type TicketViewer = { id: number; staff: boolean };

export function viewerOf(user: SessionUser): TicketViewer {
  return { id: user.id, staff: user.super || user.profile !== "user" };
}

const idsParam = (ids: number[]) => (ids.length ? JSON.stringify(ids) : undefined);

function listQuery(filters: TicketListFilters, pageNumber: number) {
  return {
    pageNumber,
    status: filters.status,
    searchParam: filters.searchParam || undefined,
    queueIds: idsParam(filters.queueIds),
    tags: idsParam(filters.tags),
    users: idsParam(filters.users),
    showAll: filters.showAll ? "true" : undefined,
    withUnreadMessages: filters.withUnreadMessages ? "true" : undefined,
  };
}

// an answer is taken by the list's query within this long, else that query asks again
const PREFETCH_TTL_MS = 10_000;
const prefetched = new Map<string, { page: Promise<TicketsPage>; at: number }>();

/** Asks for a list's first page now; the list's query takes the answer (once) instead of asking again. */
export function prefetchFirstPage(filters: TicketListFilters): void {
  const page = api<TicketsPage>("/tickets", { query: listQuery(filters, 1) });
  page.catch(() => undefined);
  prefetched.set(JSON.stringify(filters), { page, at: Date.now() });
}

/** One page of a list (40, newest activity first): the first one from a prefetch when one is fresh. */
export function fetchTicketsPage(filters: TicketListFilters, pageNumber: number, signal?: AbortSignal): Promise<TicketsPage> {
  if (pageNumber === 1) {
    const key = JSON.stringify(filters);
    const early = prefetched.get(key);
    prefetched.delete(key);
    if (early && Date.now() - early.at < PREFETCH_TTL_MS) return early.page;
  }
  return api<TicketsPage>("/tickets", { query: listQuery(filters, pageNumber), signal });
}
