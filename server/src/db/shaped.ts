import { is, Param, Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * The values of a statement whose text is built once per shape. Building a Drizzle query into text
 * costs more server CPU than PostgreSQL spends running the inbox's statements (a third of a ticket
 * list request, profiled); the hot reads build each shape once and afterwards only fill in values.
 *
 * `v(name, value)` records a value and answers its placeholder; `mark(token)` records a structural
 * choice that no value shows (a condition left out, a literal written into the text). The names and
 * the marks together are the shape: two calls with the same shape must build the same text.
 */
/** Where a condition's values go: placeholders of a shaped statement (Binds) or the text (inline). */
export interface Bind {
  v(name: string, value: unknown): SQL;
  anyOf(column: SQLWrapper, name: string, values: readonly unknown[]): SQL;
  mark(token: string | number | boolean): void;
}

/** Values as ordinary parameters, for statements that are not shaped. */
export const inline: Bind = {
  v: (_name, value) => sql`${value}`,
  anyOf: (column, _name, values) => (values.length ? sql`${column} in ${values}` : sql`false`),
  mark: () => {},
};

export class Binds implements Bind {
  readonly values: Record<string, unknown> = {};
  readonly #shape: string[] = [];

  /** The placeholder of a value the driver takes as it is (numbers, strings, arrays, ISO dates). */
  v(name: string, value: unknown): SQL {
    if (name in this.values) {
      // one value may appear in several places of a statement (the company, mostly)
      if (!Object.is(this.values[name], value)) throw new Error(`placeholder "${name}" bound to two values`);
    } else {
      this.values[name] = value;
      this.#shape.push(name);
    }
    return sql`${sql.placeholder(name)}`;
  }

  mark(token: string | number | boolean): void {
    this.#shape.push(`#${token}`);
  }

  /** column = any(values): one array value, so a list of any length keeps the shape. */
  anyOf(column: SQLWrapper, name: string, values: readonly unknown[]): SQL {
    return sql`${column} = any(${this.v(name, values)})`;
  }

  get shape(): string {
    return this.#shape.join(",");
  }
}

type Prepared<R> = { execute(values: Record<string, unknown>): Promise<R>; getQuery(): { sql: string; params: unknown[] } };
type Preparable<R> = { prepare(name: string): Prepared<R> };

/**
 * What Drizzle's prepared query of a shape holds besides its text (node-postgres's and PGlite's alike,
 * drizzle-orm 0.45): enough to make the same query on another handle's session without building it.
 */
type DrizzlePrepared = Prepared<unknown> & {
  fields?: unknown;
  _isResponseInArrayMode?: boolean;
  customResultMapper?: unknown;
  queryMetadata?: unknown;
  cacheConfig?: unknown;
  joinsNotNullableMap?: unknown;
};
type SessionOf = {
  session?: {
    prepareQuery?(
      query: { sql: string; params: unknown[] },
      fields: unknown,
      name: string,
      arrayMode: boolean | undefined,
      mapper: unknown,
      metadata: unknown,
      cacheConfig: unknown,
    ): DrizzlePrepared;
  };
};

/** Per database handle (the pool, or one transaction): a prepared query answers on the handle it was made on. */
const byHandle = new WeakMap<object, Map<string, Prepared<unknown>>>();
/** The first build of each shape, for every later handle: a transaction is a new handle each time. */
const templates = new Map<string, DrizzlePrepared>();
/** Shapes are the application's own, few per statement; past this a handle stops keeping new ones. */
const SHAPES_PER_HANDLE = 500;

/**
 * Runs `build()`'s query with the binds' values, building it only the first time the process meets
 * `statement` in this shape; a handle that has not run it yet (a transaction) gets the built query on
 * its own connection. A value written into the text instead of a placeholder would be served to every
 * later caller of the shape (another company's id, say): such a query is refused.
 */
export async function shaped<R>(handle: object, statement: string, binds: Binds, build: () => Preparable<R>): Promise<R> {
  let shapes = byHandle.get(handle);
  if (!shapes) {
    shapes = new Map();
    byHandle.set(handle, shapes);
  }
  const key = `${statement}|${binds.shape}`;
  let prepared = shapes.get(key) as Prepared<R> | undefined;
  if (!prepared) {
    prepared = onHandle(handle, templates.get(key)) as Prepared<R> | undefined;
    if (!prepared) {
      // an empty name: the pool's client names and prepares it by its text (db/prepared.ts)
      const built = build().prepare("");
      assertOnlyPlaceholders(statement, built.getQuery().params);
      if (templates.size < SHAPES_PER_HANDLE) templates.set(key, built as DrizzlePrepared);
      prepared = built;
    }
    if (shapes.size < SHAPES_PER_HANDLE) shapes.set(key, prepared as Prepared<unknown>);
  }
  return prepared.execute(binds.values);
}

/** A shape's first build made again on `handle`'s session: the same text, fields and result mapping. */
function onHandle(handle: object, template: DrizzlePrepared | undefined): DrizzlePrepared | undefined {
  const session = (handle as SessionOf).session;
  if (!template || !session?.prepareQuery) return undefined;
  const made = session.prepareQuery(
    template.getQuery(),
    template.fields,
    "",
    template._isResponseInArrayMode,
    template.customResultMapper,
    template.queryMetadata,
    template.cacheConfig,
  );
  // a select's left joins: which tables' columns may come back all null (set by the select builder)
  made.joinsNotNullableMap = template.joinsNotNullableMap;
  return made;
}

function assertOnlyPlaceholders(statement: string, params: unknown[]): void {
  for (const p of params) {
    if (is(p, Placeholder) || (is(p, Param) && is(p.value, Placeholder))) continue;
    throw new Error(`statement "${statement}" carries a value in its text; bind it with Binds.v`);
  }
}

/** The text a handle keeps for a statement's shape (tests compare it with a fresh build). */
export function shapedText(handle: object, statement: string, binds: Binds): string | undefined {
  return byHandle.get(handle)?.get(`${statement}|${binds.shape}`)?.getQuery().sql;
}

type Built = { sql: string; names: string[] };
/** Texts of array-row statements by statement and shape: they depend on neither handle nor values. */
const builtTexts = new Map<string, Built>();
type PgQueryable = { query(config: { text: string; values: unknown[]; rowMode: "array" }): Promise<{ rows: unknown[][] }> };
type PgliteQueryable = { query(text: string, values: unknown[], options: { rowMode: "array" }): Promise<{ rows: unknown[][] }> };

/**
 * shaped() for a hot read that maps its own rows: each row comes back as the driver's array of values,
 * in the selection's order, without Drizzle's per-cell mapping (a sixth of the server's time on the
 * ticket list, profiled). Types are the driver's: timestamps should be selected as numbers.
 */
export async function shapedArrays(
  handle: object,
  statement: string,
  binds: Binds,
  build: () => { toSQL(): { sql: string; params: unknown[] } },
): Promise<unknown[][]> {
  const key = `${statement}|${binds.shape}`;
  let built = builtTexts.get(key);
  if (!built) {
    const { sql: text, params } = build().toSQL();
    assertOnlyPlaceholders(statement, params);
    const names = params.map((p) => (is(p, Param) ? (p.value as Placeholder).name : (p as Placeholder).name));
    built = { sql: text, names };
    if (builtTexts.size < SHAPES_PER_HANDLE) builtTexts.set(key, built);
  }
  const values = built.names.map((n) => binds.values[n]);
  // the pool (or a transaction's connection) under Drizzle's session: node-postgres's or PGlite's
  const client = (handle as { session?: { client?: object } }).session?.client;
  if (!client) throw new Error(`statement "${statement}": no client under this handle`);
  if ("connect" in client)
    return (await (client as unknown as PgQueryable).query({ text: built.sql, values, rowMode: "array" })).rows;
  return (await (client as PgliteQueryable).query(built.sql, values, { rowMode: "array" })).rows;
}
