import { HelpForm, IdParams } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { allHelps, companyHelps } from "./queries.js";
import { createHelp, deleteHelp, updateHelp } from "./service.js";

/**
 * Help videos (secondary §2, §7): every logged-in user reads them all (/helps page); super users
 * manage them in the settings' Ayuda tab (helps.manage: 403 for anyone else, before any query).
 */
export async function helpsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: "helps.manage" } as const;

  r.get("/helps", { config: { permission: "helps.view" } }, (req) => allHelps(req.ctx.db));

  r.get("/helps/list", { config: manage }, (req) => companyHelps(req.ctx.db, req.ctx.companyId));

  r.post("/helps", { schema: { body: HelpForm }, config: manage }, async (req, reply) =>
    reply.status(201).send(await createHelp(req.ctx, req.body)),
  );

  r.put("/helps/:id", { schema: { params: IdParams, body: HelpForm }, config: manage }, (req) =>
    updateHelp(req.ctx, req.params.id, req.body),
  );

  r.delete("/helps/:id", { schema: { params: IdParams }, config: manage }, async (req, reply) => {
    await deleteHelp(req.ctx, req.params.id);
    return reply.status(204).send();
  });
}
