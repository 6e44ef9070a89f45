import type { Db, Tx } from "./client.js";

export type AfterCommit = (fn: () => void | Promise<void>) => void;

/**
 * Runs `fn` in one transaction. Side effects that others can observe (socket events, jobs in
 * memory) are queued with `afterCommit` and run only once the data they describe is committed.
 */
export async function withTransaction<T>(db: Db, fn: (tx: Tx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  const queued: (() => void | Promise<void>)[] = [];
  const result = await db.transaction((tx) => fn(tx, (cb) => queued.push(cb)));
  for (const cb of queued) {
    try {
      await cb();
    } catch {
      // a failed broadcast must not turn a committed write into an error response
    }
  }
  return result;
}
