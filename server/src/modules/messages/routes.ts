import { randomUUID } from "node:crypto";
import {
  IdParams,
  MessageSendForm,
  TypingForm,
  MessagesQuery,
  type MessagesPage,
  type MessageView,
  V,
  looseBoolOr,
  storableText,
} from "@charla/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { sendStoredFile } from "../../lib/stored-file-reply.js";
import { AppError, found } from "../../lib/app-error.js";
import { extensionOf } from "../../pipeline/media.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer } from "../tickets/viewer.js";
import { messagesPage } from "./page.js";
import type { StoredMedia } from "./send.js";
import { type AnswerDraft, answerTicket, asUser, deleteMessage, showTyping } from "./service.js";

const TicketParams = z.object({ ticketId: IdParams.shape.id });
const PageQuery = MessagesQuery.extend({ peek: looseBoolOr(false) });

const tenant = scopedFor;

/**
 * JSON `MessageSendForm`, or multipart with `medias` files and the same fields as text. Files are
 * streamed to the company's store as they arrive (each within MAX_UPLOAD_BYTES and the storage
 * quota), never held whole in memory; if the request is refused, none stays.
 */
async function readDraft(req: FastifyRequest): Promise<AnswerDraft> {
  if (!req.isMultipart()) {
    const parsed = MessageSendForm.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new AppError("ERR_VALIDATION", {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      });
    const { body, quotedMsg, sign, clientId, location, contact } = parsed.data;
    const share = location ? { location } : contact ? { contact } : undefined;
    return { body, quotedId: quotedMsg?.id ?? null, sign, clientId, files: [], share };
  }
  const fields: Record<string, string> = {};
  const files: StoredMedia[] = [];
  try {
    return await readMultipartDraft(req, fields, files);
  } catch (err) {
    for (const file of files) await req.ctx.storage.remove(req.ctx.companyId, file.path);
    throw err;
  }
}

async function readMultipartDraft(
  req: FastifyRequest,
  fields: Record<string, string>,
  files: StoredMedia[],
): Promise<AnswerDraft> {
  const maxBytes = req.ctx.config.maxUploadBytes;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 10 } })) {
      if (part.type === "file") {
        if (part.fieldname !== "medias") {
          part.file.resume();
          continue;
        }
        const mimetype = part.mimetype || "application/octet-stream";
        const fileName = storableText(part.filename || "") || "file";
        const relative = `media/${randomUUID()}${extensionOf({ mimetype, fileName, data: Buffer.alloc(0) })}`;
        const stored = await req.ctx.storage.writeUpload(req.ctx.companyId, relative, part.file, maxBytes);
        files.push({ path: stored.path, mimetype, fileName });
      } else if (typeof part.value === "string") {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    throw new AppError(code === "FST_REQ_FILE_TOO_LARGE" ? "ERR_FILE_TOO_LARGE" : "ERR_BAD_REQUEST");
  }
  let quoted: unknown = null;
  try {
    quoted = fields.quotedMsg ? JSON.parse(fields.quotedMsg) : null;
  } catch {
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "quotedMsg", message: V.invalid }] });
  }
  const parsed = MessageSendForm.safeParse({
    body: fields.body ?? "",
    quotedMsg: quoted,
    sign: fields.sign,
    clientId: fields.clientId || undefined,
  });
  if (!parsed.success)
    throw new AppError("ERR_VALIDATION", {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  const { body, quotedMsg, sign, clientId } = parsed.data;
  return { body, quotedId: quotedMsg?.id ?? null, sign, clientId, files };
}

export async function messagesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tickets.use" } as const;

  /** Pages back from the newest, 20 a page, each oldest first; opening page 1 (not a peek) marks the ticket read. */
  r.get(
    "/messages/:ticketId",
    { schema: { params: TicketParams, querystring: PageQuery }, config: use },
    async (req): Promise<MessagesPage> => {
      const q = tenant(req);
      return messagesPage(req.ctx, q, await loadViewer(q, req.ctx.user), req.params.ticketId, {
        pageNumber: req.query.pageNumber,
        peek: req.query.peek,
      });
    },
  );

  /** An agent's answer: text, or one message per file (the text is the first file's caption). */
  r.post(
    "/messages/:ticketId",
    { schema: { params: TicketParams }, config: use, bodyLimit: 1024 * 1024 },
    async (req, reply): Promise<MessageView[]> => {
      const draft = await readDraft(req);
      // files not yet handed to a send are the request's to remove, whatever refuses it
      const unsent = new Set(draft.files);
      try {
        const sent = await answerTicket(req.ctx, req.ctx.companyId, asUser(req.ctx.user), req.params.ticketId, draft, {
          onHandOver: (file) => unsent.delete(file),
        });
        return reply.status(201).send(sent);
      } finally {
        for (const file of unsent) await req.ctx.storage.remove(req.ctx.companyId, file.path);
      }
    },
  );

  /**
   * "typing…" on the contact's phone while an agent writes the answer: the same checks as answering
   * (the ticket open, and the agent's or staff's), then a courtesy to the channel that never fails the call.
   */
  r.post(
    "/messages/:ticketId/typing",
    { schema: { params: TicketParams, body: TypingForm }, config: use },
    async (req, reply) => {
      await showTyping(req.ctx, req.ctx.companyId, asUser(req.ctx.user), req.params.ticketId, req.body.typing);
      return reply.status(204).send();
    },
  );

  /** Own messages only (core §6), deleted for everyone on the phone; the row stays, marked deleted. */
  r.delete("/messages/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteMessage(req.ctx, req.ctx.companyId, asUser(req.ctx.user), req.params.id);
    return reply.status(204).send();
  });

  /** The file of a message, to users of the owning company who may see its ticket. */
  r.get("/messages/:id/media", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const q = tenant(req);
    const message = found(await q.messages.findById(req.params.id), "ERR_NO_MESSAGE_FOUND");
    await visibleTicket(q, await loadViewer(q, req.ctx.user), { id: message.ticketId }).catch(() => {
      throw new AppError("ERR_NO_MESSAGE_FOUND");
    });
    if (!message.mediaPath) throw new AppError("ERR_NO_MESSAGE_FOUND");
    const data = await req.ctx.storage.read(req.ctx.companyId, message.mediaPath).catch(() => {
      throw new AppError("ERR_NO_MESSAGE_FOUND");
    });
    return sendStoredFile(reply, { path: message.mediaPath, name: message.mediaName, data }, "private, max-age=3600");
  });
}
