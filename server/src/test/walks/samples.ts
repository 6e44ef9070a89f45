import { randomUUID } from "node:crypto";
import { type ZodType, z } from "zod";

type Json = {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  anyOf?: Json[];
  oneOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  items?: Json;
  default?: unknown;
};

/** A minimal valid value for a route's zod schema, built from its JSON Schema; fresh emails each call. */
export function sampleOf(schema: unknown): unknown {
  if (!schema || typeof (schema as ZodType).safeParse !== "function") return undefined;
  const js = z.toJSONSchema(schema as ZodType, { io: "input", unrepresentable: "any" }) as Json;
  return fromJson(js);
}

function fromJson(js: Json): unknown {
  const alt = js.anyOf ?? js.oneOf;
  if (alt) return fromJson(alt.find((x) => x.type !== "null" && x.const !== "") ?? alt[0]);
  if (js.const !== undefined) return js.const;
  if (js.enum) return js.enum[0];
  const type = Array.isArray(js.type) ? js.type.find((t) => t !== "null") : js.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of js.required ?? []) out[key] = fromJson(js.properties?.[key] ?? {});
      return out;
    }
    case "string":
      return sampleString(js);
    case "integer":
    case "number":
      return Math.max(1, js.minimum ?? 1, (js.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return false;
    case "array":
      return [];
    default:
      return js.default ?? "walk";
  }
}

function sampleString(js: Json): string {
  if (js.format === "email" || js.pattern?.includes("@")) return `walk-${randomUUID().slice(0, 8)}@walk.test`;
  if (js.pattern?.includes("\\d{4}-")) return "2030-01-01";
  if (js.pattern?.includes("#")) return "#123456";
  if (js.pattern?.includes("\\d")) return "10";
  const base = `Walk ${randomUUID().slice(0, 6)}`;
  return base.padEnd(js.minLength ?? 0, "x");
}

/**
 * Paths of every string field a schema declares (required or not, nested objects included), each with
 * a valid sample of the whole value to put a bad string into.
 */
export function stringFields(schema: unknown): { path: string[]; sample: Record<string, unknown> }[] {
  if (!schema || typeof (schema as ZodType).safeParse !== "function") return [];
  const js = z.toJSONSchema(schema as ZodType, { io: "input", unrepresentable: "any" }) as Json;
  const sample = fromJson(js);
  if (!sample || typeof sample !== "object" || Array.isArray(sample)) return [];
  const out: { path: string[]; sample: Record<string, unknown> }[] = [];
  const walk = (node: Json, path: string[]) => {
    const alt = node.anyOf ?? node.oneOf;
    if (alt) {
      for (const a of alt) walk(a, path);
      return;
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes("string") && path.length) out.push({ path, sample: structuredClone(sample) as Record<string, unknown> });
    if (types.includes("object")) for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, [...path, key]);
  };
  walk(js, []);
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.path.join(".")) && seen.add(f.path.join(".")));
}

/** `value` at `path` of a copy of `sample`, building the objects on the way. */
export function withValue(sample: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(sample);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== "object") node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
  return copy;
}

/** Replaces every `:param` of a route with a value. */
export function fillParams(url: string, value: (name: string, resource: string) => string): string {
  const segs = url.split("/");
  return segs
    .map((seg, i) => {
      if (!seg.startsWith(":")) return seg;
      const resource = segs.slice(0, i).filter((s) => s && !s.startsWith(":") && s !== "api" && s !== "v1")[0] ?? "";
      return encodeURIComponent(value(seg.slice(1), resource));
    })
    .join("/");
}
