import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client.js";

type Results<T extends readonly (() => PromiseLike<unknown>)[]> = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };

/**
 * Independent reads: at once on the pool, one after the other inside a transaction. A transaction is
 * one connection; queries issued on it in parallel only queue up there, and node-postgres deprecates
 * doing so (pg 9 refuses it).
 */
export async function gather<const T extends readonly (() => PromiseLike<unknown>)[]>(
  db: Db | Tx,
  tasks: T,
): Promise<Results<T>> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(tasks.map((task) => task()))) as Results<T>;
  const out: unknown[] = [];
  for (const task of tasks) out.push(await task());
  return out as Results<T>;
}
