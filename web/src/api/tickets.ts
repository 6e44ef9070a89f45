import {
  type ContactView,
  Limits,
  type MessagesPage,
  normalizeNumber,
  type TicketCreateForm,
  type TicketEvent,
  type TicketsPage,
  type TicketView,
  type UserView,
} from "@charla/contracts";
import {
  type InfiniteData,
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useMemo } from "react";
import { useAuth } from "../auth/context";
import { api } from "./client";
import { fetchTicketsPage, type TicketListFilters, type TicketViewer, viewerOf } from "./ticket-lists";

/** Query keys shared by the list (pages/tickets/list) and the chat (pages/tickets/chat). */
export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => ["tickets", "list"] as const,
  list: (filters: Record<string, unknown>) => ["tickets", "list", filters] as const,
  detail: (uuid: string) => ["tickets", "detail", uuid] as const,
  messages: (ticketId: number) => ["tickets", "messages", ticketId] as const,
  notes: (contactId: number) => ["tickets", "notes", contactId] as const,
};

export type { TicketEvent, TicketView };

/** The ticket of the /tickets/{uuid} route (docs/api-inbox.md). */
export function useTicketByUuid(uuid: string | null) {
  return useQuery({
    queryKey: ticketKeys.detail(uuid ?? ""),
    queryFn: ({ signal }) => api<TicketView>(`/tickets/u/${uuid}`, { signal }),
    enabled: !!uuid,
    retry: false,
  });
}

/* ---------------------------------------------------------------------------------------------
 * Ticket lists (pages/tickets): GET /tickets per tab, and the cache edits live events make.
 * ------------------------------------------------------------------------------------------- */

export { type TicketListFilters, type TicketViewer, viewerOf } from "./ticket-lists";

export type TicketsData = InfiniteData<TicketsPage, number>;

/** One tab's infinite list: 40 a page, newest activity first. The screen's hook and the page-load prefetch share it. */
export function ticketsListQuery(filters: TicketListFilters) {
  return infiniteQueryOptions({
    queryKey: ticketKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchTicketsPage(filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last: TicketsPage, pages: TicketsPage[]) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useTicketsList(filters: TicketListFilters, enabled = true) {
  return useInfiniteQuery({ ...ticketsListQuery(filters), enabled });
}

/** Each ticket once, in list order: pages are offsets, so a ticket added live may come back on a later page. */
export function flattenTickets(data: { pages: TicketsPage[] } | undefined): TicketView[] {
  if (!data) return [];
  const seen = new Set<number>();
  const tickets: TicketView[] = [];
  for (const page of data.pages) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      tickets.push(ticket);
    }
  }
  return tickets;
}

/** The server's search: contact name or last message contain the text, or the number its digits. */
function matchesSearch(ticket: TicketView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  const digits = normalizeNumber(needle);
  return (
    ticket.contact.name.toLowerCase().includes(needle) ||
    ticket.lastMessage.toLowerCase().includes(needle) ||
    (digits !== "" && ticket.contact.number.includes(digits))
  );
}

/**
 * Whether a ticket belongs in a list, by the same rules as GET /tickets (core §4 Live updates). What
 * the viewer may see at all is the server's call: events only reach those who may see the ticket.
 */
export function ticketMatchesFilters(ticket: TicketView, filters: TicketListFilters, viewer: TicketViewer): boolean {
  if (filters.status && ticket.status !== filters.status) return false;
  const showAll = filters.showAll && viewer.staff;
  if (filters.status === "open" && !showAll && ticket.userId !== viewer.id) return false;
  if (
    filters.queueIds.length &&
    ticket.queueId !== null &&
    ticket.userId !== viewer.id &&
    !filters.queueIds.includes(ticket.queueId)
  ) {
    return false;
  }
  if (filters.users.length && (ticket.userId === null || !filters.users.includes(ticket.userId))) return false;
  if (filters.tags.length && !filters.tags.every((id) => ticket.tags.some((tag) => tag.id === id))) return false;
  if (filters.withUnreadMessages && ticket.unreadMessages <= 0) return false;
  return matchesSearch(ticket, filters.searchParam);
}

const timeOf = (ticket: TicketView) => Date.parse(ticket.updatedAt) || 0;

function hasTicket(data: TicketsData, ticketId: number): boolean {
  return data.pages.some((page) => page.tickets.some((t) => t.id === ticketId));
}

/** Every page of the list is loaded: a ticket not in it is not in the list at all. */
function complete(data: TicketsData): boolean {
  return data.pages.length > 0 && !data.pages[data.pages.length - 1].hasMore;
}

/**
 * An event the cache cannot apply: the ticket may sit on a page not loaded yet, so neither its place
 * nor the count can be known here. Only that list is read again (and only if it is on screen).
 */
function refetchList(client: QueryClient, key: readonly unknown[]): void {
  void client.invalidateQueries({ queryKey: key, exact: true });
}

function withCount(data: TicketsData, delta: number): TicketsData {
  if (delta === 0) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, count: Math.max(0, page.count + delta) })) };
}

function without(data: TicketsData, ticketId: number): TicketsData {
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.tickets.some((t) => t.id === ticketId) ? { ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) } : page,
    ),
  };
}

/**
 * Puts the ticket where the server's order (newest `updatedAt` first) has it, or on top. One older
 * than everything loaded while more pages remain is left for the page that will bring it.
 */
function insert(data: TicketsData, ticket: TicketView, top: boolean): TicketsData {
  const pages = data.pages;
  if (pages.length === 0) return data;
  const time = timeOf(ticket);
  for (const [p, page] of pages.entries()) {
    const at = top ? 0 : page.tickets.findIndex((t) => timeOf(t) < time || (timeOf(t) === time && t.id < ticket.id));
    if (at === -1 && p < pages.length - 1) continue;
    if (at === -1 && page.hasMore) return data;
    const position = at === -1 ? page.tickets.length : at;
    const tickets = [...page.tickets.slice(0, position), ticket, ...page.tickets.slice(position)];
    return { ...data, pages: pages.map((item, i) => (i === p ? { ...item, tickets } : item)) };
  }
  return data;
}

function filtersOf(key: readonly unknown[]): TicketListFilters | null {
  const filters = key[2];
  return typeof filters === "object" && filters !== null ? (filters as TicketListFilters) : null;
}

/**
 * A changed or new ticket into every loaded list: replaced (and moved to its place by `updatedAt`)
 * where it still matches, added where it now matches, removed where it no longer does. Counts follow.
 * `top` puts it first (a new message). The chat's copy (`ticketKeys.detail`) is refreshed too.
 * Lists are edited in place, never read again, unless the ticket may be on a page not loaded yet.
 */
export function upsertTicketInLists(client: QueryClient, ticket: TicketView, viewer: TicketViewer, top = false): void {
  client.setQueryData<TicketView>(ticketKeys.detail(ticket.uuid), (current) => (current ? ticket : current));
  for (const [key, data] of client.getQueriesData<TicketsData>({ queryKey: ticketKeys.lists() })) {
    const filters = filtersOf(key);
    if (!data || !filters) continue;
    const present = hasTicket(data, ticket.id);
    const matches = ticketMatchesFilters(ticket, filters, viewer);
    if (!present && !matches) continue;
    if (!present && !complete(data)) {
      refetchList(client, key);
      continue;
    }
    const rest = present ? without(data, ticket.id) : data;
    const next = matches ? insert(rest, ticket, top) : rest;
    client.setQueryData<TicketsData>(key, withCount(next, (matches ? 1 : 0) - (present ? 1 : 0)));
  }
}

/** A deleted ticket (or one the viewer lost sight of) leaves every list. */
export function removeTicketFromLists(client: QueryClient, ticketId: number): void {
  for (const [key, data] of client.getQueriesData<TicketsData>({ queryKey: ticketKeys.lists() })) {
    if (!data) continue;
    if (hasTicket(data, ticketId)) client.setQueryData<TicketsData>(key, withCount(without(data, ticketId), -1));
    else if (!complete(data)) refetchList(client, key);
  }
}

/** `updateUnread`: the ticket was read; "only unread" lists drop it. */
export function markTicketReadInLists(client: QueryClient, ticketId: number): void {
  for (const [key, data] of client.getQueriesData<TicketsData>({ queryKey: ticketKeys.lists() })) {
    const filters = filtersOf(key);
    if (!data || !filters) continue;
    if (!hasTicket(data, ticketId)) {
      if (filters.withUnreadMessages && !complete(data)) refetchList(client, key);
      continue;
    }
    if (filters.withUnreadMessages) {
      client.setQueryData<TicketsData>(key, withCount(without(data, ticketId), -1));
      continue;
    }
    client.setQueryData<TicketsData>(key, {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t)),
      })),
    });
  }
  for (const [key, ticket] of client.getQueriesData<TicketView>({ queryKey: [...ticketKeys.all, "detail"] })) {
    if (ticket?.id === ticketId && ticket.unreadMessages !== 0) client.setQueryData(key, { ...ticket, unreadMessages: 0 });
  }
}

export function useTicketViewer(): TicketViewer | null {
  const { user } = useAuth();
  return useMemo(() => (user ? viewerOf(user) : null), [user]);
}

/** Accept from the list (core §4): pending → open, assigned to the caller. */
export function useAcceptTicket() {
  const client = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    mutationFn: (ticket: TicketView) =>
      api<TicketView>(`/tickets/${ticket.id}`, {
        method: "PUT",
        body: { status: "open", userId: viewer?.id ?? null, expectedStatus: "pending" },
      }),
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.detail(ticket.uuid), ticket);
      if (viewer) upsertTicketInLists(client, ticket, viewer);
    },
  });
}

/** New-ticket modal (core §5): POST /tickets → the open ticket. */
export function useCreateTicket() {
  const client = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    mutationFn: (values: TicketCreateForm) => api<TicketView>("/tickets", { method: "POST", body: values }),
    onSuccess: (ticket) => {
      client.setQueryData(ticketKeys.detail(ticket.uuid), ticket);
      if (viewer) upsertTicketInLists(client, ticket, viewer, true);
    },
  });
}

/** The admin's read-only look at a conversation (core §2): `peek=true` leaves it unread. */
export function usePeekMessages(ticketId: number | null) {
  return useInfiniteQuery({
    queryKey: [...ticketKeys.all, "peek", ticketId ?? 0] as const,
    queryFn: ({ pageParam, signal }) =>
      api<MessagesPage>(`/messages/${ticketId}`, { query: { pageNumber: pageParam, peek: "true" }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: ticketId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** The new-ticket modal's contact search (core §5): from 3 characters, already debounced by the caller. */
export function useContactOptions(search: string) {
  return useQuery({
    queryKey: ["contacts", "options", search] as const,
    queryFn: ({ signal }) => api<ContactView[]>("/contacts/list", { query: { searchParam: search }, signal }),
    enabled: search.length >= Limits.searchMin,
    placeholderData: keepPreviousData,
  });
}

/** The users filter (admins): GET /users/list, shared with the transfer modal's picker. */
export function useUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ["users", "picker"] as const,
    queryFn: ({ signal }) => api<UserView[]>("/users/list", { signal }),
    enabled,
  });
}
