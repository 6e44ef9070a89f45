import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type pg from "pg";

/** Distinct statements one connection keeps prepared; past it, new texts go unnamed (planned each time). */
export const PREPARED_PER_CONNECTION = 200;

const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `c${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    // the texts are the application's own (values travel as parameters): a small, bounded set
    if (names.size < 5_000) names.set(text, name);
  }
  return name;
}

type QueryConfig = { text?: unknown; name?: string; values?: unknown[] };

/**
 * A node-postgres client that prepares each parameterised statement once per connection, under a name
 * made from its text. PostgreSQL then parses it once and, after a few executions, keeps its plan: the
 * ticket list's joins cost ~2 ms to plan and 0.5 ms to run, planned on every request otherwise.
 * Statements without parameters (BEGIN, COMMIT, DDL, several statements at once) stay as they are;
 * an empty name (Drizzle's prepare(""), db/shaped.ts) is named here like any other.
 */
export function preparingClient(base: typeof pg.Client): typeof pg.Client {
  return class PreparingClient extends base {
    readonly #prepared = new Set<string>();

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres overloads query(); this forwards every form
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfig | string;
      const params = Array.isArray(values) ? values : typeof c === "object" ? c?.values : undefined;
      if (c && typeof c === "object" && typeof c.text === "string" && !c.name && params?.length) {
        const name = nameOf(c.text);
        if (this.#prepared.has(name) || this.#prepared.size < PREPARED_PER_CONNECTION) {
          this.#prepared.add(name);
          return (super.query as (...args: unknown[]) => unknown)({ ...c, name }, values, callback);
        }
      }
      return super.query(config, values, callback);
    }
  } as typeof pg.Client;
}

/**
 * A LIMIT or OFFSET written into the statement's text rather than sent as a parameter. PostgreSQL
 * keeps a prepared statement's generic plan only when it is not estimated costlier than planning each
 * call; with the LIMIT unknown it assumes a tenth of the table, so the ticket list was planned again
 * on every call (2 ms of its 3.5). Page bounds are few distinct numbers: few distinct statements.
 */
export function literalCount(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  // Drizzle writes an SQL object given as a limit into the text as it is
  return sql.raw(String(n)) as unknown as number;
}
