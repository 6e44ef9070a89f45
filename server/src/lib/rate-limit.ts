import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { toCount } from "../db/client.js";

/**
 * Fixed-window counter kept in Postgres, so every node sees the same count. One upsert per hit:
 * a window older than `windowSec` restarts at 1.
 */
export async function hit(db: Db, key: string, windowSec: number): Promise<number> {
  const rows = await db.execute(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${windowSec}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSec}) then now() else rate_limits.window_start end
    returning count`);
  return toCount(rowsOf<{ count: number | string }>(rows)[0]?.count);
}

/** Takes back one hit (an attempt that turned out not to count); never below 0. */
export async function release(db: Db, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
}

export async function reset(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** node-postgres returns `{rows}`, PGlite returns `{rows}` too, but Drizzle may hand back the array. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
