import { randomBytes } from "node:crypto";
import { ApiErrors, ApiTokenView, IdParams } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { whatsapps } from "../../db/schema/index.js";
import { found } from "../../lib/app-error.js";
import { secretHash } from "../../lib/secret-box.js";
import { appRouteDoc } from "../../plugins/openapi.js";

/** A new external API token: `chr_` and 32 random bytes, base64url (the prefix tells it from a login token). */
export function newApiToken(): string {
  return `chr_${randomBytes(32).toString("base64url")}`;
}

/**
 * The connection's external API token (issue 30), stored sealed (to be shown again) and by its hash
 * (to find the connection from a request). `rotate`: a new one replaces the old, which stops working
 * at once; otherwise the current one, made on first use. Never the `token` column (the phone number).
 */
export async function apiTokenOf(s: Services, companyId: number, whatsappId: number, rotate: boolean): Promise<ApiTokenView> {
  const q = scoped(s.db, companyId);
  const wa = found(await q.whatsapps.findById(whatsappId), "ERR_NO_WAPP_FOUND");
  if (!rotate && wa.apiTokenSealed) return { apiToken: s.secrets.open(wa.apiTokenSealed) };
  const apiToken = newApiToken();
  const [row] = await s.db
    .update(whatsapps)
    .set({ apiTokenSealed: s.secrets.seal(apiToken), apiTokenHash: secretHash(apiToken) })
    // lazily made: two first reads at once keep the one that landed first
    .where(
      and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, wa.id), rotate ? undefined : eq(whatsapps.apiTokenSealed, "")),
    )
    .returning({ id: whatsapps.id });
  if (row) return { apiToken };
  const again = found(await q.whatsapps.findById(wa.id), "ERR_NO_WAPP_FOUND");
  return { apiToken: s.secrets.open(again.apiTokenSealed) };
}

/** GET shows the token (made on first use), POST regenerates it: the connections page's Token action (admins). */
export async function apiTokenRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // the company's admins, while the plan has the external API (core §6): nobody else holds a key to it
  const config = { permission: "external-api.view" } as const;
  const doc = appRouteDoc("Connections");
  const response = { 200: ApiTokenView, ...ApiErrors };
  r.get(
    "/whatsapp/:id/api-token",
    { schema: { ...doc, summary: "The connection's API token", params: IdParams, response }, config },
    async (req, reply) => {
      reply.header("cache-control", "no-store");
      return apiTokenOf(req.ctx, req.ctx.companyId, req.params.id, false);
    },
  );
  r.post(
    "/whatsapp/:id/api-token",
    { schema: { ...doc, summary: "Regenerate the connection's API token", params: IdParams, response }, config },
    async (req, reply) => {
      reply.header("cache-control", "no-store");
      return apiTokenOf(req.ctx, req.ctx.companyId, req.params.id, true);
    },
  );
}
