import type { SessionUser, TicketStatus, TicketsPage } from "@charla/contracts";
import { joinsSoFar } from "../realtime/joins";
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
const prefetched = new Map<string, { page: Promise<TicketsPage>; at: number; join: number }>();

/** Asks for a list's first page now; the list's query takes the answer (once) instead of asking again. */
export function prefetchFirstPage(filters: TicketListFilters): void {
  const page = api<TicketsPage>("/tickets", { query: listQuery(filters, 1) });
  page.catch(() => undefined);
  prefetched.set(JSON.stringify(filters), { page, at: Date.now(), join: joinsSoFar() });
}

/** A ticket event arrived: early answers not yet taken may lack it, so their lists ask again. */
export function dropPrefetched(): void {
  prefetched.clear();
}

// A page load with a stored session asks for its first lists once the socket has joined (main.tsx):
// until then the lists' own queries wait for those answers instead of asking before the join.
let firstLists: Promise<unknown> = Promise.resolve();

/** Lists wait for `ready` (settled after the first lists were asked for) before they read. */
export function holdListsUntil(ready: Promise<unknown>): void {
  firstLists = ready.catch(() => undefined);
}

/** One page of a list (40, newest activity first): the first one from a prefetch when one is fresh. */
export async function fetchTicketsPage(
  filters: TicketListFilters,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<TicketsPage> {
  await firstLists;
  // a read called off meanwhile (read again after a join) leaves the early answer to the next one
  signal?.throwIfAborted();
  if (pageNumber === 1) {
    const key = JSON.stringify(filters);
    const early = prefetched.get(key);
    prefetched.delete(key);
    // an answer asked for before the socket's latest join may lack what happened until that join
    if (early && Date.now() - early.at < PREFETCH_TTL_MS && early.join === joinsSoFar()) return await early.page;
  }
  return api<TicketsPage>("/tickets", { query: listQuery(filters, pageNumber), signal });
}
