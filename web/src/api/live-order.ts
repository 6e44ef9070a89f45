import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";

/*
 * A live event, a save's answer and a read can reach the page in any order: the answer to a PUT may
 * arrive after the events of what the server did next (a campaign scheduled for now starts and
 * finishes while its save is still answering), and a read that began before an event may answer
 * without it. Both would put an older state back over a newer one and leave it there.
 */

function stamp(row: unknown): number | null {
  if (!row || typeof row !== "object") return null;
  const value = (row as { updatedAt?: unknown }).updatedAt;
  if (typeof value !== "string") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Whether `incoming` may replace `current`: not when both carry `updatedAt` and the cached one is
 * strictly newer (every write bumps it: db/scoped.ts). Equal stamps replace, so a change the server
 * made without bumping it still shows.
 */
export function fresher<T>(current: T | undefined, incoming: T): boolean {
  const had = stamp(current);
  const has = stamp(incoming);
  return had === null || has === null || has >= had;
}

type Watch = { count: number; stop: () => void };

/**
 * The events an area applied while one of its reads was on its way, applied once more when that read
 * lands (with `fresher`, a replay over newer data changes nothing).
 */
export function inFlightEvents(root: QueryKey) {
  const pending = new WeakMap<Query, Array<() => void>>();
  const watches = new WeakMap<QueryClient, Watch>();

  function note(client: QueryClient, apply: () => void): void {
    apply();
    for (const query of client.getQueryCache().findAll({ queryKey: root, fetchStatus: "fetching" })) {
      const events = pending.get(query) ?? [];
      events.push(apply);
      pending.set(query, events);
    }
  }

  /** Listens for reads landing while a page of the area is mounted; the returned function stops it. */
  function watch(client: QueryClient): () => void {
    const existing = watches.get(client);
    if (existing) existing.count += 1;
    else {
      const stop = client.getQueryCache().subscribe((event) => {
        if (event.type !== "updated") return;
        const { type } = event.action;
        if (type !== "success" && type !== "error") return;
        const events = pending.get(event.query);
        if (!events) return;
        pending.delete(event.query);
        if (type === "success") for (const apply of events) apply();
      });
      watches.set(client, { count: 1, stop });
    }
    return () => {
      const current = watches.get(client);
      if (!current) return;
      current.count -= 1;
      if (current.count === 0) {
        current.stop();
        watches.delete(client);
      }
    };
  }

  return { note, watch };
}
