import { readdirSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { blankComments, lineAt } from "./code-text.js";

export type Import = { spec: string; typeOnly: boolean; line: number };
export type Edge = { from: string; to: string; typeOnly: boolean; line: number };

const STATIC = /\b(import|export)(\s+type)?\s+((?:(?!\b(?:import|export)\b)[\w$\s{},*])*?)\s*\bfrom\s*(["'])([^"']+)\4/g;
const BARE = /\bimport\s*(["'])([^"']+)\1/g;
const DYNAMIC = /(\btypeof\s+)?\bimport\(\s*(["'])([^"']+)\2\s*\)/g;

/**
 * The modules a TypeScript source names: `import … from`, `export … from`, `import "…"` and
 * `import("…")`. An import is type-only when the compiler erases it: `import type`, every named
 * binding marked `type`, or `typeof import(…)`.
 */
export function parseImports(source: string): Import[] {
  const code = blankComments(source);
  const found: Import[] = [];
  for (const m of code.matchAll(STATIC)) {
    const clause = m[3];
    if (m[1] === "export" && !/^(\*|\{)/.test(clause.trim())) continue; // `export const x = … from` is no re-export
    found.push({ spec: m[5], typeOnly: Boolean(m[2]) || allNamedAreTypes(clause), line: lineAt(code, m.index) });
  }
  for (const m of code.matchAll(BARE)) found.push({ spec: m[2], typeOnly: false, line: lineAt(code, m.index) });
  for (const m of code.matchAll(DYNAMIC)) found.push({ spec: m[3], typeOnly: Boolean(m[1]), line: lineAt(code, m.index) });
  return found;
}

function allNamedAreTypes(clause: string): boolean {
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named) return false;
  const names = named[1]
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((s) => s.startsWith("type "));
}

/** Every non-test TypeScript file under `root`, as paths relative to it; the test helpers are not the product. */
export function productSources(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (relative(root, full) !== "test") walk(full);
      } else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) {
        files.push(relative(root, full).split("\\").join("/"));
      }
    }
  };
  walk(root);
  return files.sort();
}

/** The source file a relative specifier names among `files` (`./x.js` is `./x.ts`); packages are null. */
export function resolveSpec(files: Set<string>, fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = posix.join(posix.dirname(fromFile), spec);
  const candidates = [base.replace(/\.js$/, ".ts"), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => files.has(c)) ?? null;
}

/** The import edges between `files` (paths relative to server/src), each read by `read`. */
export function importEdges(files: string[], read: (file: string) => string): Edge[] {
  const known = new Set(files);
  const edges: Edge[] = [];
  for (const from of files) {
    for (const imp of parseImports(read(from))) {
      const to = resolveSpec(known, from, imp.spec);
      if (to) edges.push({ from, to, typeOnly: imp.typeOnly, line: imp.line });
    }
  }
  return edges;
}

/** The top folder under server/src a file belongs to ("" for the files at the root). */
export const layerOf = (file: string) => (file.includes("/") ? file.slice(0, file.indexOf("/")) : "");

/** Edges from one of the `lower` layers into one of the `upper` ones. */
export function upwardEdges(edges: Edge[], lower: string[], upper: string[]): Edge[] {
  return edges.filter((e) => lower.includes(layerOf(e.from)) && upper.includes(layerOf(e.to)));
}

/**
 * The import circles: strongly connected groups of more than one file (Tarjan), each sorted, with
 * `typeOnly` true when the group falls apart once type-only edges are dropped (it costs nothing at
 * run time but still ties the files together for a reader and the compiler).
 */
export function importCircles(edges: Edge[]): { files: string[]; typeOnly: boolean }[] {
  const all = components(edges);
  const valueOnly = components(edges.filter((e) => !e.typeOnly));
  return all.map((files) => ({
    files,
    typeOnly: !valueOnly.some((group) => group.some((f) => files.includes(f))),
  }));
}

function components(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.from === e.to) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    if (!next.has(e.to)) next.set(e.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  // iterative Tarjan: a recursive one would be bounded by the call stack on a long chain
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const targets = next.get(top.node) ?? [];
      if (top.i < targets.length) {
        const to = targets[top.i++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node) ?? 0, index.get(to) ?? 0));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent) ?? 0, low.get(top.node) ?? 0));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          group.push(member);
        } while (member !== top.node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups;
}
