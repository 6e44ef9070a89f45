import type { FastifyInstance } from "fastify";
import { asc } from "drizzle-orm";
import { scoped } from "../../db/scoped.js";
import { queues } from "../../db/schema/index.js";

/** Read-only list for pickers (user modal); the Areas issue adds the rest of /queue. */
export async function queuesRoutes(app: FastifyInstance) {
  app.get("/queue", { config: { permission: "queues.list" } }, async (req) => {
    const q = scoped(req.ctx.db, req.ctx.companyId);
    return q.db
      .select({ id: queues.id, name: queues.name, color: queues.color, orderQueue: queues.orderQueue })
      .from(queues)
      .where(q.queues.where())
      .orderBy(asc(queues.orderQueue), asc(queues.name));
  });
}
