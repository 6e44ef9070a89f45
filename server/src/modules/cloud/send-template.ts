import type { MessageView, TemplateSendForm } from "@charla/contracts";
import type { z } from "zod";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { AppError } from "../../lib/app-error.js";
import { sendToTicket } from "../messages/send.js";
import { type Actor, viewerOf, writableTicket } from "../messages/service.js";
import { approvedTemplate } from "./templates.js";

/**
 * An approved template to a ticket's contact, the one message the Cloud API lets through once the
 * customer's 24-hour window is closed: the same checks as any answer (the ticket open, the writer's or
 * staff's), the template approved with exactly its parameters, then recorded first (its text filled)
 * and sent as the template.
 */
export async function sendTemplateToTicket(
  s: Services,
  companyId: number,
  actor: Actor,
  ticketId: number,
  form: z.output<typeof TemplateSendForm>,
): Promise<MessageView> {
  const q = scoped(s.db, companyId);
  const viewer = await viewerOf(q, actor);
  const ticket = await writableTicket(q, viewer, ticketId);
  if (!ticket.whatsappId) throw new AppError("ERR_CLOUD_NOT_A_CLOUD_CONNECTION");
  const { body } = await approvedTemplate(s, companyId, ticket.whatsappId, form.name, form.language, form.params);
  return sendToTicket(s, companyId, ticket, {
    body,
    userId: actor.kind === "user" ? viewer.id : null,
    template: { name: form.name, language: form.language, params: form.params },
  });
}
