import { IdParams, PageQuery, QuickMessageForm } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { replyWithCompanyFile } from "../../lib/stored-file-reply.js";
import { found } from "../../lib/app-error.js";
import { storeAttachment } from "../../plugins/upload.js";
import { presentQuickMessage } from "./presenter.js";
import { composerQuickMessages, pageQuickMessages, visibleQuickMessage } from "./queries.js";
import {
  createQuickMessage,
  deleteQuickMessage,
  removeQuickMessageMedia,
  setQuickMessageMedia,
  updateQuickMessage,
} from "./service.js";

/**
 * Quick replies (secondary §2, §7): every profile lists and uses the company's shared replies and
 * their own (core §6 gives quick replies to `user` too) and manages their own; a shared one someone
 * else wrote only staff change or delete (policies/quick-messages.ts, 403). Another user's own reply,
 * like another company's, is not found.
 */
export async function quickMessagesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "quick-messages.use" } as const;

  /** The composer's slash list: active replies only. */
  r.get("/quick-messages/list", { config: use }, (req) => composerQuickMessages(scopedFor(req), req.ctx.user.id));

  r.get("/quick-messages", { schema: { querystring: PageQuery }, config: use }, (req) =>
    pageQuickMessages(scopedFor(req), req.ctx.user.id, req.query.searchParam, req.query.pageNumber),
  );

  r.get("/quick-messages/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    presentQuickMessage(found(await visibleQuickMessage(scopedFor(req), req.ctx.user.id, req.params.id), "ERR_NOT_FOUND")),
  );

  r.post("/quick-messages", { schema: { body: QuickMessageForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createQuickMessage(req.ctx, req.body)),
  );

  r.put("/quick-messages/:id", { schema: { params: IdParams, body: QuickMessageForm }, config: use }, (req) =>
    updateQuickMessage(req.ctx, req.params.id, req.body),
  );

  r.delete("/quick-messages/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteQuickMessage(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Multipart `file`: any file a message may carry, within the upload limit and the company's quota. */
  r.post("/quick-messages/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    setQuickMessageMedia(req.ctx, req.params.id, (prefix) => storeAttachment(req, prefix)),
  );

  r.delete("/quick-messages/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    removeQuickMessageMedia(req.ctx, req.params.id),
  );

  /** The reply's file, to the users of its company who may see the reply. */
  r.get("/quick-messages/:id/media", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const row = found(await visibleQuickMessage(scopedFor(req), req.ctx.user.id, req.params.id), "ERR_NOT_FOUND");
    return replyWithCompanyFile(req, reply, { path: row.mediaPath, name: row.mediaName }, "ERR_NOT_FOUND");
  });
}
