import { IdParams, QueueOptionForm, QueueOptionUpdateForm, QueueOptionsQuery } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { createQueueOption, deleteQueueOption, listQueueOptions, updateQueueOption } from "./option-service.js";

/** A queue's chatbot option tree (core §7 Queues and options), read a level at a time. */
export async function queueOptionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: "queues.manage" } as const;

  r.get("/queue-options", { schema: { querystring: QueueOptionsQuery }, config: { permission: "queues.list" } }, (req) =>
    listQueueOptions(scopedFor(req), req.query.queueId, req.query.parentId),
  );
  r.post("/queue-options", { schema: { body: QueueOptionForm }, config: manage }, async (req, reply) =>
    reply.status(201).send(await createQueueOption(req.ctx, req.body)),
  );
  r.put("/queue-options/:id", { schema: { params: IdParams, body: QueueOptionUpdateForm }, config: manage }, (req) =>
    updateQueueOption(req.ctx, req.params.id, req.body),
  );
  r.delete("/queue-options/:id", { schema: { params: IdParams }, config: manage }, async (req, reply) => {
    await deleteQueueOption(req.ctx, req.params.id);
    return reply.status(204).send();
  });
}
