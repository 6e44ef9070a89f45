import type { KanbanLanes, KanbanPage, KanbanTicket, TagRef, TagView } from "@charla/contracts";
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { useAuth } from "../auth/context";
import { useSocketEvent } from "../realtime/context";
import { api } from "./client";

export type { KanbanTicket };

export const kanbanKeys = {
  all: ["kanban"] as const,
  lanes: () => ["kanban", "lanes"] as const,
  boards: () => ["kanban", "board"] as const,
  board: (queueIds: string | undefined) => ["kanban", "board", queueIds ?? "all"] as const,
};

type Board = InfiniteData<KanbanPage, number>;

/** GET /tags/kanban: the lanes after "Abierto", the company's tags marked kanban, by name. */
export function useKanbanLanes() {
  return useQuery({
    queryKey: kanbanKeys.lanes(),
    queryFn: ({ signal }) => api<KanbanLanes>("/tags/kanban", { signal }).then((answer) => answer.lista),
  });
}

/**
 * An agent's own queues as the JSON array secondary §7 sends (the server narrows to them anyway);
 * none for staff, whose board holds every area's tickets as their ticket list does (core §6).
 */
function useOwnQueueIds(): string | undefined {
  const user = useAuth().user;
  const staff = !user || user.super || user.profile !== "user";
  const queues = user?.queues;
  return useMemo(() => (staff ? undefined : JSON.stringify((queues ?? []).map((queue) => queue.id))), [staff, queues]);
}

/** GET /ticket/kanban: the open and pending tickets of the user's queues, 100 a page. */
export function useKanbanBoard() {
  const queueIds = useOwnQueueIds();
  const query = useInfiniteQuery({
    queryKey: kanbanKeys.board(queueIds),
    queryFn: ({ pageParam, signal }) => api<KanbanPage>("/ticket/kanban", { query: { queueIds, pageNumber: pageParam }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const tickets = useMemo(() => {
    // pages are offsets: a ticket that moved up between two pages may come twice
    const seen = new Set<number>();
    return (query.data?.pages.flatMap((page) => page.tickets) ?? []).filter(
      (ticket) => !seen.has(ticket.id) && seen.add(ticket.id),
    );
  }, [query.data]);
  return {
    tickets,
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    loading: query.isLoading,
    loadingMore: query.isFetchingNextPage,
    isError: query.isError,
  };
}

/** A move: the card's new lane, a kanban tag or null for "Abierto". */
export type KanbanMove = { ticketId: number; lane: TagView | null };

function mapCard(board: Board | undefined, id: number, change: (ticket: KanbanTicket) => KanbanTicket): Board | undefined {
  if (!board) return board;
  return {
    ...board,
    pages: board.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((ticket) => (ticket.id === id ? change(ticket) : ticket)),
    })),
  };
}

/**
 * PUT /ticket-tags/{ticketId}/{tagId} or DELETE /ticket-tags/{ticketId}: the card's kanban tags
 * become exactly the lane's (none for "Abierto"). The card moves at once and goes back on a failure.
 */
export function useMoveKanbanCard(lanes: TagView[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, lane }: KanbanMove) =>
      lane
        ? api<KanbanTicket>(`/ticket-tags/${ticketId}/${lane.id}`, { method: "PUT" })
        : api<KanbanTicket>(`/ticket-tags/${ticketId}`, { method: "DELETE" }),
    onMutate: async ({ ticketId, lane }) => {
      await client.cancelQueries({ queryKey: kanbanKeys.boards() });
      const before = client.getQueriesData<Board>({ queryKey: kanbanKeys.boards() });
      const laneIds = new Set(lanes.map((tag) => tag.id));
      const added: TagRef[] = lane ? [{ id: lane.id, name: lane.name, color: lane.color }] : [];
      client.setQueriesData<Board>({ queryKey: kanbanKeys.boards() }, (board) =>
        mapCard(board, ticketId, (ticket) => ({
          ...ticket,
          tags: [...ticket.tags.filter((tag) => !laneIds.has(tag.id)), ...added],
        })),
      );
      return { before };
    },
    onError: (_error, _move, context) => {
      for (const [key, data] of context?.before ?? []) client.setQueryData(key, data);
    },
    onSuccess: (card) => {
      client.setQueriesData<Board>({ queryKey: kanbanKeys.boards() }, (board) => mapCard(board, card.id, () => card));
    },
  });
}

const LIVE_DEBOUNCE_MS = 300;

/**
 * While the board is open: a ticket change (a move, a new message, a transfer, a close) or a tag
 * change reloads the board and its lanes, once per burst of events.
 */
export function useKanbanLiveEvents(): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef({ lanes: false });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const refresh = (lanes: boolean) => {
    pending.current.lanes ||= lanes;
    // at most one reload per LIVE_DEBOUNCE_MS: a busy inbox's steady events must not keep putting it off
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const withLanes = pending.current.lanes;
      pending.current.lanes = false;
      void client.invalidateQueries({ queryKey: withLanes ? kanbanKeys.all : kanbanKeys.boards() });
    }, LIVE_DEBOUNCE_MS);
  };
  useSocketEvent("ticket", () => refresh(false));
  useSocketEvent("tag", () => refresh(true));
}
