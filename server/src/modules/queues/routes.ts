import { IdParams, QueueForm } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { listQueues, queueView } from "./queries.js";
import { createQueue, deleteQueue, updateQueue } from "./service.js";

/** Areas (core §7 Queues): every profile lists them (pickers, filters); admins and subadmins manage them. */
export async function queuesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: "queues.manage" } as const;

  // the spec's optional companyId is not read: the company is always the token's
  r.get("/queue", { config: { permission: "queues.list" } }, (req) => listQueues(scopedFor(req)));
  r.get("/queue/:id", { schema: { params: IdParams }, config: { permission: "queues.list" } }, (req) =>
    queueView(scopedFor(req), req.params.id),
  );
  r.post("/queue", { schema: { body: QueueForm }, config: manage }, async (req, reply) =>
    reply.status(201).send(await createQueue(req.ctx, req.body)),
  );
  r.put("/queue/:id", { schema: { params: IdParams, body: QueueForm }, config: manage }, (req) =>
    updateQueue(req.ctx, req.params.id, req.body),
  );
  r.delete("/queue/:id", { schema: { params: IdParams }, config: manage }, async (req, reply) => {
    await deleteQueue(req.ctx, req.params.id);
    return reply.status(204).send();
  });
}
