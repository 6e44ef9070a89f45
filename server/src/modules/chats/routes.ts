import { ChatForm, ChatMessageForm, ChatMessagesQuery, ChatParams, ChatReadForm, PageQuery } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { chatView, pageChatMessages, pageChats, participantChat } from "./queries.js";
import { createChat, deleteChat, postChatMessage, readChat, updateChat } from "./service.js";

/**
 * Internal chat (secondary §2, §7): staff-to-staff conversations of one company, on the plan's
 * useInternalChat (403 without it). A chat exists only for its participants: anyone else, like another
 * company, gets 404 by id or uuid; its owner alone edits or deletes it (others 403).
 */
export async function chatsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "internal-chat.use" } as const;

  r.get("/chats", { schema: { querystring: PageQuery }, config: use }, (req) =>
    pageChats(scopedFor(req), req.ctx.user.id, req.query.pageNumber),
  );

  r.post("/chats", { schema: { body: ChatForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createChat(req.ctx, req.body)),
  );

  r.get("/chats/:id", { schema: { params: ChatParams }, config: use }, async (req) => {
    const q = scopedFor(req);
    return chatView(q, found(await participantChat(q, req.ctx.user.id, req.params.id), "ERR_NOT_FOUND"));
  });

  r.put("/chats/:id", { schema: { params: ChatParams, body: ChatForm }, config: use }, (req) =>
    updateChat(req.ctx, req.params.id, req.body),
  );

  r.delete("/chats/:id", { schema: { params: ChatParams }, config: use }, async (req, reply) => {
    await deleteChat(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  r.post("/chats/:id/read", { schema: { params: ChatParams, body: ChatReadForm }, config: use }, (req) =>
    readChat(req.ctx, req.params.id),
  );

  r.get("/chats/:id/messages", { schema: { params: ChatParams, querystring: ChatMessagesQuery }, config: use }, async (req) => {
    const q = scopedFor(req);
    const chat = found(await participantChat(q, req.ctx.user.id, req.params.id), "ERR_NOT_FOUND");
    return pageChatMessages(q, chat.id, req.query.pageNumber);
  });

  r.post("/chats/:id/messages", { schema: { params: ChatParams, body: ChatMessageForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await postChatMessage(req.ctx, req.params.id, req.body)),
  );
}
