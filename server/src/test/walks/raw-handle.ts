import { blankComments, lineAt } from "./code-text.js";

/** A tenant table: its name in TypeScript (as db/schema exports it) and in SQL. */
export type TenantTable = { name: string; sqlName: string };

/** One statement on a tenant table that names no company. */
export type Unscoped = { file: string; line: number; table: string; kind: string; text: string };

const BUILDER = /\.(from|update|insert|delete)\(\s*([A-Za-z_$][\w$.]*)\s*\)/g;
const SQL_TEMPLATE = /\bsql(?:\.raw)?\s*`/g;
const COMPANY = /\bcompanyId\b|\bcompany_id\b/;

/**
 * The Drizzle statements of one source file that touch a tenant table without a company condition:
 * `.select(…).from(t)`, `.update(t)`, `.delete(t)`, `.insert(t)` on a table imported from db/schema,
 * and sql`…` text that reads or writes one (`${t}` or its SQL name after from / join / update / into).
 *
 * A statement counts as scoped when its own text (the builder chain, or the template) names
 * `companyId` / `company_id` outside the selected and returned columns, or goes through the scoped
 * door (`q.<table>.where(…)`, `scoped(…)`). A `.where(cond)` or `.values(rows)` whose argument is a
 * plain name is read through that name's `const`/`let` in the same file. It is a reading of the text,
 * not of types: a condition hidden in a helper function is not seen, and such a statement is listed.
 */
export function unscopedStatements(file: string, source: string, tenant: TenantTable[]): Unscoped[] {
  const code = blankComments(source);
  const imported = schemaImports(code);
  const local = new Map<string, TenantTable>();
  for (const [name, table] of imported) {
    const t = tenant.find((x) => x.name === table);
    if (t) local.set(name, t);
  }
  const tables = [...imported.keys()].map((n) => n.replace(/\$/g, "\\$")).join("|") || "$^";
  const shapes: Shapes = {
    tenant,
    column: new RegExp(`\\b(${tables})\\.companyId\\b`),
    // `eq(a.x, b.companyId)` between two tables joins rows of one company; it binds no company
    joinKey: new RegExp(`\\beq\\(\\s*(${tables})\\.\\w+\\s*,\\s*(${tables})\\.\\w+\\s*\\)`, "g"),
  };
  const found: Unscoped[] = [];
  for (const m of code.matchAll(BUILDER)) {
    const table = local.get(m[2]);
    if (!table) continue;
    if (m[1] === "from" && !/\.select(Distinct(On)?)?\s*\(/.test(code.slice(chainStart(code, m.index), m.index))) continue;
    const [start, end] = [chainStart(code, m.index), chainEnd(code, m.index)];
    const text = code.slice(start, end);
    if (!scopedStatement(code, start, text, shapes)) {
      found.push({ file, line: lineAt(code, m.index), table: table.name, kind: m[1], text: oneLine(text) });
    }
  }
  for (const m of code.matchAll(SQL_TEMPLATE)) {
    const body = templateBody(code, m.index + m[0].length);
    const table = tenantInSql(body, local, tenant);
    if (table && !COMPANY.test(body) && !companyCondition(body, shapes)) {
      found.push({ file, line: lineAt(code, m.index), table: table.name, kind: "sql", text: oneLine(`sql\`${body}\``) });
    }
  }
  return found;
}

/** The tables a file imports from db/schema, by their local names (`as` renames included). */
function schemaImports(code: string): Map<string, string> {
  const local = new Map<string, string>();
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']*db\/schema[^"']*)["']/g)) {
    for (const part of m[1].split(",").filter((p) => p.trim())) {
      const [imported, alias] = part
        .replace(/^\s*type\s+/, "")
        .trim()
        .split(/\s+as\s+/);
      local.set((alias ?? imported).trim(), imported.trim());
    }
  }
  return local;
}

/** What a file's text binds a company with: its tables' `companyId` columns and their join keys. */
type Shapes = { tenant: TenantTable[]; column: RegExp; joinKey: RegExp };

/**
 * Whether a statement names its company where it counts: a `companyId` column (or `company_id`, or
 * the scoped door `q.<table>.where(…)`) in a where or a join condition, or a `companyId` in the
 * inserted values; never in the selected, returned or set columns, nor in a join key between two
 * tables. Plain names there are read through their declaration in the file (the nearest one before
 * the statement), two levels deep, so a `const where = q.items.where(…)` or a local `owned(ref)`
 * helper is followed.
 */
function scopedStatement(code: string, start: number, text: string, shapes: Shapes): boolean {
  const values = callArguments(text, /\.values\s*\(/g);
  if ([...values, ...followed(code, values, start)].some((v) => COMPANY.test(v))) return true;
  const conditions = callArguments(text, /\.(where|(inner|left|right|full)Join)\s*\(/g);
  return companyCondition([...conditions, ...followed(code, conditions, start)].join(" "), shapes);
}

function companyCondition(text: string, { tenant, column, joinKey }: Shapes): boolean {
  const bound = text.replace(joinKey, "");
  if (column.test(bound) || /\bcompany_id\b/.test(bound)) return true;
  return [...bound.matchAll(/\b\w+\.(\w+)\.where\s*\(/g)].some((m) => tenant.some((t) => t.name === m[1]));
}

/** The declarations of the names in `texts`, and of the names in those (names, not properties). */
function followed(code: string, texts: string[], at: number): string[] {
  const out: string[] = [];
  let frontier = texts.join(" ");
  for (let level = 0; level < 2 && frontier; level++) {
    const names = [...new Set(frontier.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g) ?? [])];
    frontier = names
      .map((name) => declaration(code, name, at))
      .filter(Boolean)
      .join(" ");
    out.push(frontier);
  }
  return out;
}

/** The balanced argument text of every call the pattern opens (the pattern ends at its `(`). */
function callArguments(text: string, opener: RegExp): string[] {
  return [...text.matchAll(opener)].map((m) => {
    const from = (m.index ?? 0) + m[0].length;
    return text.slice(from, chainEnd(text, from, true));
  });
}

/** The text of `const name = …`, `let name = …` or `function name(…) {…}`, the nearest before `at`. */
function declaration(code: string, name: string, at: number): string {
  const safe = name.replace(/\$/g, "\\$");
  const pattern = new RegExp(`\\b(?:(?:const|let)\\s+${safe}\\b[^=;]*=(?!=)|function\\s+${safe}\\s*\\()`, "g");
  const all = [...code.matchAll(pattern)];
  // a local const is used after it; a function or a module's const may be declared anywhere below
  const topLevel = (m: RegExpMatchArray) => m[0].startsWith("function") || /(^|\n)(export\s+)?$/.test(code.slice(0, m.index));
  const pick = all.filter((m) => (m.index ?? 0) < at).pop() ?? all.find(topLevel);
  if (!pick) return "";
  const from = (pick.index ?? 0) + pick[0].length;
  if (pick[0].startsWith("function")) {
    const open = code.indexOf("{", chainEnd(code, from, true));
    return open < 0 ? "" : code.slice(from, chainEnd(code, open + 1, true));
  }
  return code.slice(from, chainEnd(code, from));
}

function tenantInSql(body: string, local: Map<string, TenantTable>, tenant: TenantTable[]): TenantTable | null {
  for (const m of body.matchAll(/\$\{\s*([\w$.]+)\s*\}/g)) {
    const t = local.get(m[1]);
    if (t) return t;
  }
  for (const m of body.matchAll(/\b(?:from|join|update|into)\s+"?([a-z_]+)"?/gi)) {
    const t = tenant.find((x) => x.sqlName === m[1].toLowerCase());
    if (t) return t;
  }
  return null;
}

/** Back from a match to where its expression starts: an unclosed bracket, `;`, `,`, `=` or `=>`. */
function chainStart(code: string, at: number): number {
  let depth = 0;
  for (let k = at - 1; k >= 0; k--) {
    const c = code[k];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "(" || c === "[" || c === "{") {
      if (depth === 0) return k + 1;
      depth--;
    } else if (depth === 0 && (c === ";" || c === "," || (c === "=" && !"=!<".includes(code[k - 1])))) return k + 1;
    else if (depth === 0 && c === ">" && code[k - 1] === "=") return k + 1;
  }
  return 0;
}

/**
 * On from a match to where its expression ends: a closing bracket it did not open, `;` or `,` (or
 * only the closing bracket, for the whole argument list of a call).
 */
function chainEnd(code: string, at: number, wholeArguments = false): number {
  let depth = 0;
  for (let k = at; k < code.length; k++) {
    const c = code[k];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) return k;
      depth--;
    } else if (depth === 0 && (c === ";" || (c === "," && !wholeArguments))) return k;
  }
  return code.length;
}

/** A template literal's text from just after its backtick, `${…}` included, to its closing backtick. */
function templateBody(code: string, from: number): string {
  let depth = 0;
  for (let k = from; k < code.length; k++) {
    const c = code[k];
    if (c === "\\") k++;
    else if (depth === 0 && c === "`") return code.slice(from, k);
    else if (c === "$" && code[k + 1] === "{") {
      depth++;
      k++;
    } else if (depth > 0 && c === "}") depth--;
  }
  return code.slice(from);
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 160);

/**
 * Where raw statements are the design: db/ itself, and the module services and finders (service.ts,
 * queries.ts, `<x>-service.ts`), which own their company's rules and are read by review, not by this.
 */
export const rawHandleExempt = (file: string) =>
  file.startsWith("db/") || /^modules\/[^/]+\/([\w-]+-)?(service|queries)\.ts$/.test(file);

/** An allow-list entry: how many unscoped statements a file holds, and why each is right. */
export type Allowed = { count: number; reason: string };

/**
 * The rule over a set of sources: every file outside the exempt ones holds at most as many unscoped
 * statements as its entry allows (none without one); past that, the offences list each statement.
 * `slack` names the entries above what they hold, to be lowered (an at-most bound, because the files
 * of work in progress change under the list).
 */
export function rawHandleOffences(
  sources: { file: string; source: string }[],
  tenant: TenantTable[],
  allowed: Record<string, Allowed>,
): { offences: string[]; slack: string[] } {
  const offences: string[] = [];
  const slack: string[] = [];
  const seen = new Set<string>();
  for (const { file, source } of sources) {
    if (rawHandleExempt(file)) continue;
    seen.add(file);
    const found = unscopedStatements(file, source, tenant);
    const allow = allowed[file]?.count ?? 0;
    if (found.length > allow) {
      offences.push(`${file}: ${found.length} statements on a tenant table without a company condition, ${allow} allowed`);
      for (const u of found) offences.push(`  ${u.file}:${u.line} ${u.kind}(${u.table}): ${u.text}`);
    } else if (found.length < allow) slack.push(`${file}: ${allow} allowed, ${found.length} found`);
  }
  for (const file of Object.keys(allowed)) if (!seen.has(file)) slack.push(`${file}: listed but not a checked source`);
  return { offences, slack };
}
