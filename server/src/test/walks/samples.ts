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
