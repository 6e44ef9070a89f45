import { ErrorCatalogue, type ErrorBody, type ErrorCode } from "@charla/contracts";
import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.js";
import { pgClientErrorCode } from "../lib/pg-errors.js";

const body = (code: ErrorCode, extra: Partial<ErrorBody> = {}): ErrorBody => ({
  error: code,
  message: ErrorCatalogue[code].es,
  ...extra,
});

/** Fastify's own 4xx errors (malformed JSON, body too large, …) mapped to catalogue codes. */
function frameworkCode(err: FastifyError): ErrorCode {
  if (err.statusCode === 413) return "ERR_PAYLOAD_TOO_LARGE";
  if (err.statusCode === 415) return "ERR_UNSUPPORTED_MEDIA_TYPE";
  if (err.statusCode === 404) return "ERR_NOT_FOUND";
  if (err.statusCode === 429) return "ERR_RATE_LIMITED";
  return "ERR_BAD_REQUEST";
}

/**
 * Every error leaves as `{error, message}` with the catalogue's status. Unknown errors are logged with
 * the request id and answered 500 ERR_INTERNAL, never with a stack.
 */
export const errorsPlugin = fp(async (app: FastifyInstance, opts: { spaIndex?: boolean }) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply
        .status(err.status)
        .send({ error: err.code, message: err.message, issues: err.issues, data: err.data } satisfies ErrorBody);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = (err as { validationContext?: string }).validationContext ?? "body";
      const issues = err.validation.map((v) => ({
        path: [where, ...v.instancePath.split("/").filter(Boolean)].join("."),
        message: v.message ?? "validation.invalid",
      }));
      return reply.status(400).send(body("ERR_VALIDATION", { issues }));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(body(frameworkCode(err)));
    }
    // text the database cannot store (a NUL that slipped past the forms) or a statement over its time limit
    const dbCode = pgClientErrorCode(err);
    if (dbCode) {
      req.log.warn({ err: { code: err.code, name: err.name } }, "database refused the request");
      return reply.status(ErrorCatalogue[dbCode].status).send(body(dbCode));
    }
    req.log.error({ err: { message: err.message, code: err.code, name: err.name } }, "unhandled error");
    return reply.status(500).send(body("ERR_INTERNAL"));
  });

  app.setNotFoundHandler((req, reply) => {
    // a client-side route of the web app (no extension, not the API) gets the SPA's index
    const path = req.url.split("?")[0];
    const isAppRoute = !path.startsWith("/api/") && !path.startsWith("/socket.io") && !/\.[a-z0-9]+$/i.test(path);
    if (opts.spaIndex && req.method === "GET" && isAppRoute) {
      return reply.header("cache-control", "no-cache").type("text/html").sendFile("index.html");
    }
    return reply.status(404).send(body("ERR_NOT_FOUND"));
  });
});
