import type { FastifyInstance } from "fastify";
import { asc } from "drizzle-orm";
import { scoped } from "../../db/scoped.js";
import { whatsapps } from "../../db/schema/index.js";

/** Read-only list for pickers (user modal); the Connections issue adds the rest of /whatsapp. */
export async function whatsappsRoutes(app: FastifyInstance) {
  app.get("/whatsapp", { config: { permission: "connections.list" } }, async (req) => {
    const q = scoped(req.ctx.db, req.ctx.companyId);
    return q.db
      .select({
        id: whatsapps.id,
        name: whatsapps.name,
        status: whatsapps.status,
        isDefault: whatsapps.isDefault,
        provider: whatsapps.provider,
      })
      .from(whatsapps)
      .where(q.whatsapps.where())
      .orderBy(asc(whatsapps.name));
  });
}
