import { denialOf, isPermission, type Permission } from "@charla/contracts";
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from "fastify";
import fp from "fastify-plugin";
import type { Principal, RequestCtx, Services } from "../context.js";
import { AppError } from "../lib/app-error.js";
import { loadPrincipal } from "../auth/principal.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Role/plan rule checked before the handler runs; every /api route names one or is `public`. */
    permission?: Permission;
    /** Any logged-in user of the company. */
    authenticated?: true;
    public?: true;
  }
  interface FastifyRequest {
    ctx: RequestCtx;
  }
  interface FastifyInstance {
    /** Every /api route as registered; tests walk it so routes added later are covered automatically. */
    routeTable: RouteEntry[];
  }
}

export function bearerOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h?.startsWith("Bearer ")) return null;
  return h.slice(7).trim() || null;
}

export type RouteEntry = { method: string; url: string; config: FastifyContextConfig; schema: FastifySchema };

/**
 * Authentication and the role/plan gate. Runs on `onRequest`, before any body is parsed, so an
 * anonymous or unauthorised caller learns nothing from validation errors.
 */
export const authPlugin = fp(async (app: FastifyInstance, services: Services) => {
  app.decorateRequest("ctx", null as unknown as RequestCtx);
  const routeTable: RouteEntry[] = [];
  app.decorate("routeTable", routeTable);

  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    if (route.method !== "HEAD") {
      routeTable.push({ method: String(route.method), url: route.url, config: route.config ?? {}, schema: route.schema ?? {} });
    }
    const cfg = route.config ?? {};
    const marks = [cfg.public, cfg.authenticated, cfg.permission].filter(Boolean).length;
    if (marks !== 1 || (cfg.permission && !isPermission(cfg.permission))) {
      throw new Error(
        `route ${route.method} ${route.url} must declare exactly one of public, authenticated or a known permission`,
      );
    }
  });

  app.addHook("onRequest", async (req) => {
    const cfg = req.routeOptions.config ?? {};
    if (cfg.public || !req.routeOptions.url?.startsWith("/api/")) return;
    const token = bearerOf(req);
    if (!token) throw new AppError("ERR_SESSION_EXPIRED");
    const claims = await services.tokens.verifyAccess(token);
    const user: Principal = await loadPrincipal(services.db, claims);
    if (cfg.permission) {
      const denial = denialOf(user, cfg.permission);
      if (denial) throw new AppError("ERR_NO_PERMISSION", { data: { reason: denial } });
    }
    req.ctx = { ...services, user, companyId: user.companyId, log: req.log };
  });
});
