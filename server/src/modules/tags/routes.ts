import { IdParams, PageQuery, TagForm, TagsSyncForm, type TagView } from "@charla/contracts";
import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { tags } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { findTagView, listTags, pageTags } from "./queries.js";
import { changeTicketTags } from "./ticket-tags.js";
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
  r.post("/tags/sync", { schema: { body: TagsSyncForm }, config: use }, (req) => {
    const wanted = [...new Set(req.body.tags.map((t) => t.id))];
    return changeTicketTags(req.ctx, req.body.ticketId, async (q) => {
      const existing = wanted.length
        ? await q.db
            .select({ id: tags.id })
            .from(tags)
            .where(q.tags.where(inArray(tags.id, wanted)))
        : [];
      if (existing.length !== wanted.length) throw new AppError("ERR_NO_TAG_FOUND");
      return { add: wanted };
    });
  });
}
