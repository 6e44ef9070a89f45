import { IdParams, PageQuery, TagForm, TagsSyncForm, type TagView } from "@charla/contracts";
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scoped, scopedFor } from "../../db/scoped.js";
import { tags, tickets, ticketTags } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { ticketChangeBroadcast } from "../tickets/broadcast.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer } from "../tickets/viewer.js";
import { findTagView, listTags, pageTags } from "./queries.js";
import { createTag, deleteTag, updateTag } from "./service.js";

const tenant = scopedFor;

/** Tags (core §7): the Tags page, the chat header's picker, and a ticket's set. */
export async function tagsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tags.use" } as const;

  r.get("/tags/list", { config: use }, (req): Promise<TagView[]> => listTags(tenant(req)));
  r.get("/tags", { schema: { querystring: PageQuery }, config: use }, (req) =>
    pageTags(tenant(req), req.query.searchParam, req.query.pageNumber),
  );
  r.get("/tags/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await findTagView(tenant(req), req.params.id), "ERR_NO_TAG_FOUND"),
  );
  r.post("/tags", { schema: { body: TagForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createTag(req.ctx, req.body)),
  );
  r.put("/tags/:id", { schema: { params: IdParams, body: TagForm }, config: use }, (req) =>
    updateTag(req.ctx, req.params.id, req.body),
  );
  r.delete("/tags/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteTag(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Replaces a ticket's tags with exactly the given set. */
  r.post("/tags/sync", { schema: { body: TagsSyncForm }, config: use }, async (req) => {
    return withTransaction(req.ctx.db, async (tx, afterCommit) => {
      const q = scoped(tx, req.ctx.companyId);
      const ticket = await visibleTicket(q, await loadViewer(q, req.ctx.user), { id: req.body.ticketId });
      await q.tickets.lockById(ticket.id);
      const wanted = [...new Set(req.body.tags.map((t) => t.id))];
      const existing = wanted.length
        ? await q.db
            .select({ id: tags.id })
            .from(tags)
            .where(q.tags.where(inArray(tags.id, wanted)))
        : [];
      if (existing.length !== wanted.length) throw new AppError("ERR_NO_TAG_FOUND");
      await tx.delete(ticketTags).where(q.ticketTags.where(eq(ticketTags.ticketId, ticket.id)));
      if (wanted.length)
        await tx.insert(ticketTags).values(wanted.map((tagId) => ({ companyId: q.companyId, ticketId: ticket.id, tagId })));
      const [updated] = await tx
        .update(tickets)
        .set({ updatedAt: ticket.updatedAt })
        .where(q.tickets.where(eq(tickets.id, ticket.id)))
        .returning();
      const change = await ticketChangeBroadcast(req.ctx, q, ticket, updated);
      afterCommit(change.emit);
      return change.view;
    });
  });
}
