import type { SocketPayloads } from "@charla/contracts";
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { useOnConnect, useSocketEvent } from "../realtime/context";
import { readBefore } from "../realtime/reads";
import { api } from "./client";
import { fresher, inFlightEvents } from "./live-order";

type Entity = { id: number };
/** The channels of the list areas, whose events all have the shape `live` describes. */
type LiveChannel = keyof Pick<
  SocketPayloads,
  | "user"
  | "contact"
  | "queue"
  | "quickMessage"
  | "schedule"
  | "contactList"
  | "campaign"
  | "file"
  | "tag"
  | "announcement"
  | "chat"
  | "prompt"
  | "queueIntegration"
>;
/** A page of a searched list as every paged endpoint answers it: its rows under one field, `hasMore`, maybe `count`. */
type Page = { hasMore: boolean; count?: number } & Record<string, unknown>;

type Definition<T extends Entity> = {
  /** The query-key root ("users") and the API path ("/users"). */
  name: string;
  path: string;
  /**
   * Paged lists (`searchParam`, `pageNumber` → the rows under this field, `hasMore`); without it the
   * endpoint answers every row at once and the search filters on the screen.
   */
  pageField?: string;
  /** Query parameters every list request carries (one contact list's items: its `contactListId`). */
  params?: Record<string, string | number>;
  /** The server's search rule, so a live row goes only into the lists it belongs to. */
  matches: (item: T, search: string) => boolean;
  /** The list's order, so a live row lands where a reload would put it; without it new rows go first. */
  order?: (a: T, b: T) => number;
  /** `company-{id}-…` and the event's fields: `{ action, [item]: T }` or `{ action: "delete", [idField]: id }`. */
  live?: { channel: LiveChannel; item: string; idField: string };
};

export type ListState<T> = {
  items: T[];
  hasMore: boolean;
  loadMore: () => void;
  /** The first page (or the next one) is on its way. */
  loading: boolean;
  fetching: boolean;
  isError: boolean;
};

/** `reload`: too much changed at once to tell row by row (a large import): the lists read again. */
export type LiveEvent<T> = { action: "create" | "update" | "delete" | "reload"; item?: T; id?: number };

/**
 * One area's list, record, save, delete and live updates, the way every list page of core §2 wants
 * them: a page is then its columns and its fields (components/list-kit).
 */
export function defineCollection<T extends Entity, Form = unknown>(def: Definition<T>) {
  const keys = {
    all: [def.name] as const,
    lists: () => [def.name, "list"] as const,
    list: (search: string) => [def.name, "list", search] as const,
    detail: (id: number) => [def.name, "detail", id] as const,
  };
  const field = def.pageField;
  const rowsOf = (page: Page) => (field ? ((page[field] as T[] | undefined) ?? []) : []);
  const withRows = (page: Page, rows: T[], delta = 0): Page =>
    field
      ? { ...page, [field]: rows, ...(typeof page.count === "number" ? { count: Math.max(0, page.count + delta) } : {}) }
      : page;

  function usePaged(search: string, enabled: boolean): ListState<T> {
    const query = useInfiniteQuery({
      queryKey: keys.list(search),
      queryFn: ({ pageParam, signal }) =>
        api<Page>(def.path, { query: { ...def.params, searchParam: search, pageNumber: pageParam }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
      enabled,
    });
    const items = useMemo(() => {
      // pages are offsets: a row added live shifts them, so a later page may repeat one already shown
      const seen = new Set<number>();
      return (query.data?.pages.flatMap(rowsOf) ?? []).filter((row) => !seen.has(row.id) && seen.add(row.id));
    }, [query.data]);
    return {
      items,
      hasMore: query.hasNextPage,
      loadMore: () => void query.fetchNextPage(),
      loading: query.isLoading || query.isFetchingNextPage,
      fetching: query.isFetching,
      isError: query.isError,
    };
  }

  function useWhole(search: string, enabled: boolean): ListState<T> {
    const query = useQuery({
      queryKey: keys.list(""),
      queryFn: ({ signal }) => api<T[]>(def.path, { signal }),
      enabled,
    });
    const items = useMemo(() => (query.data ?? []).filter((row) => def.matches(row, search)), [query.data, search]);
    return {
      items,
      hasMore: false,
      loadMore: () => undefined,
      loading: query.isLoading,
      fetching: query.isFetching,
      isError: query.isError,
    };
  }

  /** The rows matching `search` (already debounced by the caller); paged or whole is fixed per collection. */
  const useList: (search: string, enabled?: boolean) => ListState<T> = field
    ? (search, enabled = true) => usePaged(search, enabled)
    : (search, enabled = true) => useWhole(search, enabled);

  function useRecord(id: number | null) {
    return useQuery({
      queryKey: keys.detail(id ?? 0),
      queryFn: ({ signal }) => api<T>(`${def.path}/${id}`, { signal }),
      enabled: id !== null,
    });
  }

  /** A created or changed row into its detail and every loaded list it belongs to (core §4 Live updates). */
  function upsert(client: QueryClient, item: T): void {
    client.setQueryData<T>(keys.detail(item.id), (current) => (fresher(current, item) ? item : current));
    if (!field) {
      client.setQueryData<T[]>(keys.list(""), (rows) => {
        if (!rows) return rows;
        const current = rows.find((row) => row.id === item.id);
        if (current && !fresher(current, item)) return rows;
        const next = current ? rows.map((row) => (row.id === item.id ? item : row)) : [...rows, item];
        return def.order ? next.sort(def.order) : next;
      });
      return;
    }
    for (const [key, data] of client.getQueriesData<InfiniteData<Page, number>>({ queryKey: keys.lists() })) {
      if (!data) continue;
      const search = String(key[2] ?? "");
      const current = data.pages.flatMap(rowsOf).find((row) => row.id === item.id);
      if (current && !fresher(current, item)) continue;
      let pages: Page[];
      if (current)
        pages = data.pages.map((page) =>
          withRows(
            page,
            rowsOf(page).map((row) => (row.id === item.id ? item : row)),
          ),
        );
      else if (def.matches(item, search)) pages = placeNew(data.pages, item);
      else continue;
      client.setQueryData(key, { ...data, pages });
    }
  }

  /**
   * A new row goes where the list's order puts it among the loaded ones; one that sorts after the
   * last loaded row while more pages remain is left for the page that will bring it (only counted).
   */
  function placeNew(pages: Page[], item: T): Page[] {
    const last = pages.length - 1;
    for (const [p, page] of pages.entries()) {
      const rows = rowsOf(page);
      const at = def.order ? rows.findIndex((row) => (def.order?.(item, row) ?? 0) < 0) : 0;
      if (at === -1 && (p < last || page.hasMore)) continue;
      const position = at === -1 ? rows.length : at;
      const placed = [...rows.slice(0, position), item, ...rows.slice(position)];
      return pages.map((other, i) => withRows(other, i === p ? placed : rowsOf(other), 1));
    }
    return pages.map((page) => withRows(page, rowsOf(page), 1));
  }

  function remove(client: QueryClient, id: number): void {
    client.removeQueries({ queryKey: keys.detail(id) });
    if (!field) {
      client.setQueryData<T[]>(keys.list(""), (rows) => rows?.filter((row) => row.id !== id));
      return;
    }
    client.setQueriesData<InfiniteData<Page, number>>({ queryKey: keys.lists() }, (data) => {
      if (!data?.pages.some((page) => rowsOf(page).some((row) => row.id === id))) return data;
      return {
        ...data,
        pages: data.pages.map((page) =>
          withRows(
            page,
            rowsOf(page).filter((row) => row.id !== id),
            -1,
          ),
        ),
      };
    });
  }

  // a read that began before an event may answer without it: the event is applied again when it lands
  const replayed = inFlightEvents(keys.all);

  /** POST for a new row (`id` null), PUT for an existing one; the answer goes into the caches at once. */
  function useSave() {
    const client = useQueryClient();
    return useMutation({
      mutationFn: ({ id, values }: { id: number | null; values: Form }) =>
        id === null
          ? api<T>(def.path, { method: "POST", body: values })
          : api<T>(`${def.path}/${id}`, { method: "PUT", body: values }),
      onSuccess: (item) => upsert(client, item),
    });
  }

  function useDelete() {
    const client = useQueryClient();
    return useMutation({
      mutationFn: (id: number) => api<void>(`${def.path}/${id}`, { method: "DELETE" }),
      onSuccess: (_, id) => remove(client, id),
    });
  }

  /** Applies the area's `company-{id}-…` events to the caches; `also` sees each one after that. */
  function useLiveEvents(also?: (event: LiveEvent<T>) => void): void {
    const client = useQueryClient();
    const live = def.live;
    useSocketEvent(live ? live.channel : null, (event) => {
      if (!live) return;
      if (event.action === "reload") {
        void client.invalidateQueries({ queryKey: keys.lists() });
        also?.({ action: "reload" });
        return;
      }
      if (event.action === "delete") {
        const id = Number((event as Record<string, unknown>)[live.idField]);
        replayed.note(client, () => remove(client, id));
        also?.({ action: "delete", id });
        return;
      }
      const item = (event as Record<string, unknown>)[live.item] as T;
      replayed.note(client, () => upsert(client, item));
      also?.({ action: event.action, item });
    });
    useEffect(() => replayed.watch(client), [client]);
    useOnConnect((join) => {
      if (live) void client.invalidateQueries({ queryKey: keys.all, predicate: readBefore(join) });
    });
  }

  return { keys, useList, useRecord, upsert, remove, useSave, useDelete, useLiveEvents, path: def.path };
}

export type Collection<T extends Entity, Form = unknown> = ReturnType<typeof defineCollection<T, Form>>;
