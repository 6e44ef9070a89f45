import type { QuickMessageView } from "@charla/contracts";
import { asc, eq, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { scoped } from "../../db/scoped.js";
import { quickMessages } from "../../db/schema/index.js";

/** The composer's slash list: the company's shared replies and the caller's own. */
export async function quickMessagesRoutes(app: FastifyInstance) {
  app.get("/quick-messages/list", { config: { permission: "quick-messages.use" } }, async (req): Promise<QuickMessageView[]> => {
    const q = scoped(req.ctx.db, req.ctx.companyId);
    const rows = await q.db
      .select()
      .from(quickMessages)
      .where(q.quickMessages.where(or(eq(quickMessages.geral, true), eq(quickMessages.userId, req.ctx.user.id))))
      .orderBy(asc(quickMessages.shortcode))
      .limit(500);
    return rows.map((m) => ({
      id: m.id,
      shortcode: m.shortcode,
      message: m.message,
      // quick replies with files arrive with their page (a later issue); none carries one yet
      mediaUrl: null,
      mediaName: m.mediaName,
    }));
  });
}
