import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";

type Doc = Parameters<typeof jsonSchemaTransform>[0];

/** How an app route (`/api/v1`) joins the document: under its tag, behind a user's login. */
export const appRouteDoc = (tag: string) => ({ tags: [tag], security: [{ userAuth: [] }] });
type JsonObject = Record<string, unknown>;

const isZod = (v: unknown): v is z.ZodType => !!v && typeof (v as z.ZodType).safeParse === "function";

/**
 * The type provider's transform (zod → JSON Schema 2020-12, request and response), plus what it does
 * not read: a body declared per content type (`body.content`, JSON validated by its zod schema) and a
 * multipart form documented beside it (`x-multipart`, read by the handler as a stream, so never
 * validated by Fastify).
 */
function transform(doc: Doc) {
  const { schema } = doc;
  if (!schema) return jsonSchemaTransform(doc);
  const { body, "x-multipart": multipart, ...rest } = schema as JsonObject & { body?: unknown };
  const byType = body && typeof body === "object" && "content" in body ? (body as { content: JsonObject }).content : null;
  if (!byType && !multipart) return jsonSchemaTransform(doc);
  const out = jsonSchemaTransform({ ...doc, schema: byType ? rest : { ...rest, body } } as Doc) as {
    schema: JsonObject;
    url: string;
  };
  const content: JsonObject = {};
  for (const [type, entry] of Object.entries(byType ?? {})) {
    const s = (entry as { schema: unknown }).schema;
    content[type] = {
      schema: isZod(s) ? z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) : s,
    };
  }
  if (multipart) content["multipart/form-data"] = { schema: multipart };
  if (Object.keys(content).length) out.schema.body = { content };
  return out;
}

/** Routes of the document: those tagged (the external API, and the app's routes given a response schema). */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Charla API",
        version: "1.0.0",
        description:
          "Send WhatsApp messages, save contacts, read a ticket's messages and list groups through a connection. " +
          "Authenticate with the connection's API token (Connections → Token): `Authorization: Bearer <token>`. " +
          "Every error answers `{error, message}` with a code of the catalogue; 429 comes with Retry-After. " +
          "The app's own routes under `/api/v1` documented here (AI prompts, queue integrations, a connection's API token) take a user's access token instead.",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "The connection's API token (Connections → Token)." },
          userAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "A user's access token (POST /api/v1/auth/login), for the app's own routes under /api/v1.",
          },
        },
      },
    },
    hideUntagged: true,
    transform,
    transformObject: jsonSchemaTransformObject,
  });

  app.get("/api/openapi.json", { config: { public: true }, schema: { hide: true } as object }, (_req, reply) =>
    reply.header("cache-control", "no-cache").send(app.swagger()),
  );
  app.get("/api/docs", { config: { public: true }, schema: { hide: true } as object }, (_req, reply) =>
    reply
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(docsPage(app.swagger() as unknown as OpenApiDoc)),
  );
});

type Operation = {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};
type OpenApiDoc = {
  info: { title: string; description?: string; version: string };
  paths: Record<string, Record<string, Operation>>;
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Text with its `inline code` marked, as the descriptions write it. */
const prose = (s: string) => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");
const code = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

/** A readable page of the document, rendered here (no script: the app's CSP allows none inline). */
export function docsPage(doc: OpenApiDoc): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ", required" : ""}) <code>${esc(JSON.stringify(p.schema ?? {}))}</code></li>`,
        )
        .join("");
      const bodies = Object.entries(op.requestBody?.content ?? {})
        .map(([type, c]) => `<h4>Body: ${esc(type)}</h4>${code(c.schema)}`)
        .join("");
      const responses = Object.entries(op.responses ?? {})
        .map(([status, res]) => {
          const schema = Object.values(res.content ?? {})[0]?.schema;
          return `<details><summary>${esc(status)} ${prose(res.description ?? "")}</summary>${schema ? code(schema) : ""}</details>`;
        })
        .join("");
      return `<section id="${esc(method + path)}"><h2><span class="m">${esc(method.toUpperCase())}</span> ${esc(path)}</h2>
<p><strong>${esc(op.summary ?? "")}</strong></p><p>${prose(op.description ?? "")}</p>
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""}${bodies}<h4>Responses</h4>${responses}</section>`;
    }),
  );
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:0 auto;padding:16px;color:#222;line-height:1.45}
h1{font-size:1.6rem}section{border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin:16px 0}
h2{font-size:1.1rem;word-break:break-all}.m{background:#FAAF3B;color:#000;border-radius:4px;padding:2px 8px;margin-right:6px;font-size:.9rem}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:.8rem;border-radius:4px}code{background:#f1f1f1;padding:0 3px;border-radius:3px;overflow-wrap:anywhere}
summary{cursor:pointer;margin:4px 0}</style></head><body>
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${prose(doc.info.description ?? "")}</p>
<p><a href="/api/openapi.json">openapi.json</a> · <a href="/messages-api">/messages-api</a></p>
${ops.join("\n")}</body></html>`;
}
