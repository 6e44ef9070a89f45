import {
  ApiErrors,
  type ChatWindow,
  type CloudTemplatesList,
  IdParams,
  MediaTypes,
  type MessageView,
  TemplateSendForm,
  isErrorCode,
  looseBoolOr,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { appRouteDoc } from "../../plugins/openapi.js";
import { asUser } from "../messages/service.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer } from "../tickets/viewer.js";
import { sendTemplateToTicket } from "./send-template.js";
import { listTemplates } from "./templates.js";
import { chatWindow } from "./window.js";

const ChatWindowSchema = z
  .object({
    applies: z.boolean().describe("False when the connection's channel has no window (WhatsApp Web, the simulator)."),
    open: z.boolean(),
    closesAt: z.string().nullable().describe("24 h after the customer's last message; null when they never wrote."),
  })
  .describe("Meta's 24-hour customer-service window of the ticket's contact.") satisfies z.ZodType<ChatWindow>;

const CloudTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string().describe("APPROVED, PENDING, REJECTED… only approved ones can be sent."),
  category: z.string(),
  body: z.string().describe("The BODY text, `{{1}}`…`{{n}}` where the parameters go."),
  params: z.number().describe("How many body parameters it takes."),
  header: z.string(),
  footer: z.string(),
  sendable: z.boolean().describe("False when it needs header or button parameters, which are not sent: listed, not offered."),
});
const CloudTemplatesListSchema = z
  .object({ templates: z.array(CloudTemplateSchema), fetchedAt: z.string() })
  .describe("The business account's message templates, as last listed from the API.") satisfies z.ZodType<CloudTemplatesList>;

const MessageViewSchema = z
  .object({
    id: z.number(),
    ticketId: z.number(),
    contactId: z.number().nullable(),
    body: z.string(),
    fromMe: z.boolean(),
    read: z.boolean(),
    ack: z.number(),
    ackError: z.string().refine(isErrorCode).nullable(),
    mediaType: z.enum(MediaTypes),
    mediaUrl: z.string().nullable(),
    mediaName: z.string().nullable(),
    quotedMsg: z.object({ id: z.number(), body: z.string(), fromMe: z.boolean(), mediaType: z.enum(MediaTypes) }).nullable(),
    isDeleted: z.boolean(),
    isEdited: z.boolean(),
    isAutomatic: z.boolean(),
    participantName: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe("A message of the ticket.") satisfies z.ZodType<MessageView>;

const TemplatesQuery = z.object({ refresh: looseBoolOr(false) });
const TicketParams = z.object({ ticketId: IdParams.shape.id });

/**
 * The WhatsApp Cloud API's 24-hour window and templates (issue 31): whoever answers tickets reads a
 * ticket's window, lists its connection's templates and sends one. Another company's ids are not found.
 */
export async function cloudRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tickets.use" } as const;
  const doc = appRouteDoc("WhatsApp Cloud API");

  r.get(
    "/whatsapp/:id/templates",
    {
      schema: {
        ...doc,
        summary: "The connection's message templates (cached; `refresh=1` lists them from the API again)",
        params: IdParams,
        querystring: TemplatesQuery,
        response: { 200: CloudTemplatesListSchema, ...ApiErrors },
      },
      config: use,
    },
    (req) => listTemplates(req.ctx, req.ctx.companyId, req.params.id, { refresh: req.query.refresh }),
  );

  r.get(
    "/tickets/:id/window",
    {
      schema: {
        ...doc,
        summary: "Whether the ticket's customer may get free text, and until when",
        params: IdParams,
        response: { 200: ChatWindowSchema, ...ApiErrors },
      },
      config: use,
    },
    async (req) => {
      const q = scopedFor(req);
      const ticket = await visibleTicket(q, await loadViewer(q, req.ctx.user), { id: req.params.id });
      const contact = found(await q.contacts.findById(ticket.contactId), "ERR_NO_CONTACT_FOUND");
      return chatWindow(q.db, req.ctx.companyId, ticket.whatsappId, contact.number);
    },
  );

  r.post(
    "/messages/:ticketId/template",
    {
      schema: {
        ...doc,
        summary: "Send an approved template to the ticket's customer (the only message outside the 24-hour window)",
        params: TicketParams,
        body: TemplateSendForm,
        response: { 201: MessageViewSchema, ...ApiErrors },
      },
      config: use,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await sendTemplateToTicket(req.ctx, req.ctx.companyId, asUser(req.ctx.user), req.params.ticketId, req.body)),
  );
}
