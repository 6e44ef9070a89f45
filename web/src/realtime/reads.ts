import type { Query, QueryClient } from "@tanstack/react-query";
import { joinsSoFar } from "./joins";

// the join count when each query's latest full read began (a next page only adds to it)
const readAt = new WeakMap<Query, number>();
const tracked = new WeakSet<QueryClient>();

/** Notes when each query's reads begin; installed once, where the client is made, before any read. */
export function trackReads(client: QueryClient): void {
  if (tracked.has(client)) return;
  tracked.add(client);
  client.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "fetch") return;
    const meta = event.action.meta as { fetchMore?: unknown } | undefined;
    if (!meta?.fetchMore) readAt.set(event.query, joinsSoFar());
  });
}

/** Queries whose latest read began before join `join` (or never read): those may have missed events. */
export function readBefore(join: number): (query: Query) => boolean {
  return (query) => (readAt.get(query) ?? -1) < join;
}
