import {
  ApiErrors,
  DeliveriesPage,
  DeliveryView,
  IdParams,
  IntegrationForm,
  IntegrationView,
  IntegrationsPage,
  PageQuery,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { appRouteDoc } from "../../plugins/openapi.js";
import { findIntegrationView, pageDeliveries, pageIntegrations } from "./queries.js";
import { createIntegration, deleteIntegration, sendTestEvent, updateIntegration } from "./service.js";

const DeliveriesQuery = z.object({ pageNumber: PageQuery.shape.pageNumber });

/**
 * Queue integrations (secondary §2, §3, §7): the company's admins on a plan with integrations
 * (integrations.manage); another company's id is not found. The webhook secret key is the server's,
 * answered in full to these admins; the delivery log and its test event are issue 30's.
 */
export async function integrationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "integrations.manage" } as const;
  const doc = appRouteDoc("Queue integrations");
  const one = { 200: IntegrationView, ...ApiErrors };

  r.get(
    "/queueIntegration",
    { schema: { ...doc, querystring: PageQuery, response: { 200: IntegrationsPage, ...ApiErrors } }, config: use },
    (req) => pageIntegrations(scopedFor(req), req.ctx.secrets, req.query.searchParam, req.query.pageNumber),
  );
  r.get("/queueIntegration/:id", { schema: { ...doc, params: IdParams, response: one }, config: use }, async (req) =>
    found(await findIntegrationView(scopedFor(req), req.ctx.secrets, req.params.id), "ERR_NO_INTEGRATION_FOUND"),
  );
  r.post(
    "/queueIntegration",
    { schema: { ...doc, body: IntegrationForm, response: { 201: IntegrationView, ...ApiErrors } }, config: use },
    async (req, reply) => reply.status(201).send(await createIntegration(req.ctx, req.body)),
  );
  r.put(
    "/queueIntegration/:id",
    { schema: { ...doc, params: IdParams, body: IntegrationForm, response: one }, config: use },
    (req) => updateIntegration(req.ctx, req.params.id, req.body),
  );
  r.delete(
    "/queueIntegration/:id",
    { schema: { ...doc, params: IdParams, response: { 204: z.null().describe("Deleted."), ...ApiErrors } }, config: use },
    async (req, reply) => {
      await deleteIntegration(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  );
  r.get(
    "/queueIntegration/:id/deliveries",
    {
      schema: { ...doc, params: IdParams, querystring: DeliveriesQuery, response: { 200: DeliveriesPage, ...ApiErrors } },
      config: use,
    },
    async (req) => {
      const q = scopedFor(req);
      found(await q.queueIntegrations.findById(req.params.id), "ERR_NO_INTEGRATION_FOUND");
      return pageDeliveries(q, req.params.id, req.query.pageNumber);
    },
  );
  r.post(
    "/queueIntegration/:id/test",
    { schema: { ...doc, params: IdParams, response: { 201: DeliveryView, ...ApiErrors } }, config: use },
    async (req, reply) => reply.status(201).send(await sendTestEvent(req.ctx, req.params.id)),
  );
}
