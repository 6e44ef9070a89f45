import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Services } from "../../context.js";
import { companies, plans, whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { secretHash } from "../../lib/secret-box.js";
import { assertCompanyUsable } from "../../policies/company.js";
import { bearerOf } from "../../plugins/auth.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Authenticated by a connection's external API token (modules/external-api), not a user's login. */
    apiToken?: true;
  }
}

/** Who calls the external API: the connection its token belongs to, and so the company. */
export type ApiCaller = { companyId: number; whatsappId: number; tokenHash: string };

const callers = new WeakMap<FastifyRequest, ApiCaller>();

/** The caller the route's onRequest hook authenticated (only on external API routes). */
export function callerOf(req: FastifyRequest): ApiCaller {
  const caller = callers.get(req);
  if (!caller) throw new AppError("ERR_API_TOKEN_INVALID");
  return caller;
}

/**
 * The connection of a bearer API token, found by the token's hash (the same work for any token, known
 * or not; the token itself is never stored in the clear nor compared). A missing, unknown or rotated
 * token is 401; a company that may not log in (inactive, expired) is refused as login refuses it; a
 * plan without the external API is 403.
 */
export async function authenticate(s: Services, token: string | null): Promise<ApiCaller> {
  if (!token) throw new AppError("ERR_API_TOKEN_INVALID");
  const tokenHash = secretHash(token);
  const [row] = await s.db
    .select({
      whatsappId: whatsapps.id,
      companyId: whatsapps.companyId,
      company: { status: companies.status, dueDate: companies.dueDate },
      useExternalApi: plans.useExternalApi,
    })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(whatsapps.apiTokenHash, tokenHash))
    .limit(1);
  if (!row) throw new AppError("ERR_API_TOKEN_INVALID");
  assertCompanyUsable(row.company, false);
  if (!row.useExternalApi) throw new AppError("ERR_EXTERNAL_API_DISABLED");
  return { companyId: row.companyId, whatsappId: row.whatsappId, tokenHash };
}

/**
 * The onRequest hook of every external route: the token checked before any body is read, then the
 * per-token limit (EXTERNAL_API_MAX_PER_MIN a minute, shared by every node through Redis when set):
 * over it, 429 ERR_RATE_LIMITED with Retry-After.
 */
export function apiTokenHook(app: FastifyInstance, s: Services) {
  const perToken = app.createRateLimit({
    max: s.config.externalApiMaxPerMin,
    timeWindow: 60_000,
    keyGenerator: (req) => `api:${callers.get(req)?.tokenHash.slice(0, 32) ?? req.ip}`,
  });
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await authenticate(s, bearerOf(req));
    callers.set(req, caller);
    const r = await perToken(req);
    if (r.isAllowed) return;
    reply.header("x-ratelimit-limit", r.max).header("x-ratelimit-remaining", r.remaining);
    if (r.isExceeded) {
      reply.header("retry-after", Math.max(1, r.ttlInSeconds));
      throw new AppError("ERR_RATE_LIMITED");
    }
  };
}
