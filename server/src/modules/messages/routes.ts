import { randomUUID } from "node:crypto";
import {
  IdParams,
  MessageSendForm,
  TypingForm,
  MessagesQuery,
  type MessagesPage,
  type MessageView,
  V,
  can,
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
import { isStaff, loadViewer } from "../tickets/viewer.js";
import { assertNotHeldByBot } from "../../policies/tickets.js";
import { publishMessageDeletion } from "./broadcast.js";
import { messagesPage } from "./page.js";
import { type Outgoing, type StoredMedia, driverOfTicket, quotableMessage, sendToTicket } from "./send.js";

const TicketParams = z.object({ ticketId: IdParams.shape.id });
const PageQuery = MessagesQuery.extend({ peek: looseBoolOr(false) });

const tenant = scopedFor;

type Draft = {
  body: string;
  quotedId: number | null;
  sign: boolean;
  clientId?: string;
  files: StoredMedia[];
  share?: Outgoing["share"];
};

/**
 * JSON `MessageSendForm`, or multipart with `medias` files and the same fields as text. Files are
 * streamed to the company's store as they arrive (each within MAX_UPLOAD_BYTES and the storage
 * quota), never held whole in memory; if the request is refused, none stays.
 */
async function readDraft(req: FastifyRequest): Promise<Draft> {
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

async function readMultipartDraft(req: FastifyRequest, fields: Record<string, string>, files: StoredMedia[]): Promise<Draft> {
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

/** How long WhatsApp accepts "delete for everyone" after a message was sent. */
const REVOKE_WINDOW_MS = 60 * 3_600_000;

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
        return reply.status(201).send(await answer(req, req.params.ticketId, draft, unsent));
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
      const q = tenant(req);
      const viewer = await loadViewer(q, req.ctx.user);
      const ticket = await visibleTicket(q, viewer, { id: req.params.ticketId });
      assertNotHeldByBot(viewer, ticket);
      if (ticket.status !== "open" || (ticket.userId !== viewer.id && !isStaff(viewer)))
        throw new AppError("ERR_TICKET_NOT_OPEN");
      const contact = found(await q.contacts.findById(ticket.contactId), "ERR_NO_CONTACT_FOUND");
      try {
        const driver = await driverOfTicket(req.ctx, req.ctx.companyId, ticket);
        await driver.typing?.(contact.number, req.body.typing, { isGroup: contact.isGroup });
      } catch (err) {
        req.log.debug({ err, ticketId: ticket.id }, "typing not shown");
      }
      return reply.status(204).send();
    },
  );

  /** The checks of an answer (core §4, §6), then one send per message: a refusal leaves no file behind. */
  async function answer(req: FastifyRequest, ticketId: number, draft: Draft, unsent: Set<StoredMedia>) {
    const q = tenant(req);
    const viewer = await loadViewer(q, req.ctx.user);
    const ticket = await visibleTicket(q, viewer, { id: ticketId });
    // the bot's conversation is read-only to agents until it lets go (issue 26)
    assertNotHeldByBot(viewer, ticket);
    if (ticket.status !== "open" || (ticket.userId !== viewer.id && !isStaff(viewer))) throw new AppError("ERR_TICKET_NOT_OPEN");
    const text = draft.body.trim();
    if (!text && draft.files.length === 0 && !draft.share)
      throw new AppError("ERR_VALIDATION", { issues: [{ path: "body", message: V.emptyMessage }] });
    // a quote is checked like a read of its ticket: its text goes to the customer inside the reply
    const quoted = draft.quotedId ? await quotableMessage(q, viewer, ticket, draft.quotedId) : null;
    const signed =
      text && draft.sign && can(req.ctx.user, "messages.sign") ? `*${req.ctx.user.name}*\n${draft.body}` : draft.body;
    const sent: MessageView[] = [];
    if (draft.share) {
      // a pin or a card is the whole message: no text, no signature
      sent.push(
        await sendToTicket(req.ctx, req.ctx.companyId, ticket, {
          body: "",
          share: draft.share,
          quoted,
          userId: viewer.id,
          clientId: draft.clientId,
        }),
      );
    } else if (draft.files.length === 0) {
      sent.push(
        await sendToTicket(req.ctx, req.ctx.companyId, ticket, {
          body: signed,
          quoted,
          userId: viewer.id,
          clientId: draft.clientId,
        }),
      );
    } else {
      for (const [i, media] of draft.files.entries()) {
        unsent.delete(media);
        sent.push(
          await sendToTicket(req.ctx, req.ctx.companyId, ticket, {
            body: i === 0 ? (text ? signed : "") : "",
            media,
            quoted: i === 0 ? quoted : null,
            userId: viewer.id,
            // one key per file of the request, so a repeated request finds each of them
            clientId: draft.clientId && (i === 0 ? draft.clientId : `${draft.clientId}:${i}`),
          }),
        );
      }
    }
    return sent;
  }

  /** Own messages only (core §6), deleted for everyone on the phone; the row stays, marked deleted. */
  r.delete("/messages/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const q = tenant(req);
    const viewer = await loadViewer(q, req.ctx.user);
    const message = found(await q.messages.findById(req.params.id), "ERR_NO_MESSAGE_FOUND");
    const ticket = await visibleTicket(q, viewer, { id: message.ticketId }).catch(() => {
      throw new AppError("ERR_NO_MESSAGE_FOUND");
    });
    if (!message.fromMe || message.isDeleted) throw new AppError("ERR_DELETE_WAPP_MSG");
    // an agent deletes what they sent or what was sent on their own ticket, not a colleague's words
    if (!isStaff(viewer) && message.userId !== viewer.id && ticket.userId !== viewer.id) throw new AppError("ERR_NO_PERMISSION");
    // WhatsApp lets a sent message be deleted for everyone for about 60 hours; past that the phone keeps
    // it, so it is refused as the spec's "message may be too old" rather than hidden here alone
    if (message.channelId && message.ack > 0 && Date.now() - message.createdAt.getTime() > REVOKE_WINDOW_MS) {
      throw new AppError("ERR_FETCH_WAPP_MSG");
    }
    if (message.channelId) {
      const driver = await driverOfTicket(req.ctx, req.ctx.companyId, { whatsappId: message.whatsappId ?? ticket.whatsappId });
      const contact = found(await q.contacts.findById(ticket.contactId), "ERR_NO_CONTACT_FOUND");
      try {
        await driver.deleteForEveryone(contact.number, message.channelId, true, { isGroup: contact.isGroup });
      } catch {
        throw new AppError("ERR_DELETE_WAPP_MSG");
      }
    }
    const updated = await q.messages.update(message.id, { isDeleted: true });
    if (updated) {
      await publishMessageDeletion(req.ctx, req.ctx.companyId, [updated]);
    }
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
