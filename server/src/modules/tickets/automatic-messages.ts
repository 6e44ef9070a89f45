import { eq } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { contacts, type tickets } from "../../db/schema/index.js";
import { companyTimeZone } from "../companies/time-zone.js";
import { type TemplateFacts, fillTemplate } from "../../lib/template.js";
import { settingValue } from "../settings/queries.js";
import { ratingQuestion } from "../../chatbot/rating-question.js";

type TicketRow = typeof tickets.$inferSelect;

/** The accept message (behaviours: automatic messages), as Whaticket and Ticketz greet on accept. */
export const ACCEPT_MESSAGE = "{{greeting}} *{{firstName}}*, mi nombre es *{{user}}* y ahora voy a atenderte.";
/** Transfer notices when the connection has no transferMessage: to an agent, or to an area. */
export const TRANSFER_TO_USER_MESSAGE = "*Mensaje automático:* su atención fue transferida a *{{user}}*. En breve será atendido.";
export const TRANSFER_TO_QUEUE_MESSAGE =
  "*Mensaje automático:* su atención fue transferida al área *{{queue}}*. En breve será atendido.";

/**
 * What a ticket's templates are filled with: its contact, its queue, the agent named, the time zone of
 * its queue (else the company's) and a protocol unique to the ticket.
 */
export async function templateFactsOf(
  q: Scoped,
  t: TicketRow,
  agent: { name: string } | null,
  now: Date = new Date(),
): Promise<TemplateFacts> {
  const [contact] = await q.db
    .select({ name: contacts.name, email: contacts.email })
    .from(contacts)
    .where(q.contacts.where(eq(contacts.id, t.contactId)));
  const queue = t.queueId ? await q.queues.findById(t.queueId) : null;
  const timeZone = queue?.timeZone ?? (await companyTimeZone(q.db, q.companyId));
  return {
    name: contact?.name,
    email: contact?.email,
    user: agent?.name,
    queue: queue?.name,
    ticketId: t.id,
    now,
    timeZone,
  };
}

/** Resolving asks for a rating (behaviours: Rating) when userRating is on and an agent served a contact's ticket. */
export async function asksRating(q: Scoped, before: TicketRow): Promise<boolean> {
  return !before.isGroup && before.userId !== null && (await settingValue(q, "userRating")) === "enabled";
}

export type AutomaticCause = "accept" | "transfer" | "resolve";

const ownText = (text: string | null | undefined) => (text?.trim() ? text : null);

/**
 * The text a ticket change sends to its contact, or null (core §4, behaviours: automatic messages):
 * accept with sendGreetingAccepted, transfer with sendMsgTransfTicket (the connection's transferMessage,
 * else a notice naming the new agent or area), resolve the rating question when the ticket now awaits
 * a rating, else the completion message (the area's, else the connection's). Never to groups.
 */
export async function automaticMessageOf(
  q: Scoped,
  cause: AutomaticCause,
  after: TicketRow,
  agent: { name: string } | null,
): Promise<string | null> {
  if (after.isGroup) return null;
  if (cause === "accept" && (await settingValue(q, "sendGreetingAccepted")) !== "enabled") return null;
  if (cause === "transfer" && (await settingValue(q, "sendMsgTransfTicket")) !== "enabled") return null;
  const connection = after.whatsappId ? await q.whatsapps.findById(after.whatsappId) : null;
  const facts = await templateFactsOf(q, after, agent);
  if (cause === "accept") return fillTemplate(ACCEPT_MESSAGE, facts);
  if (cause === "transfer") {
    const text = connection?.transferMessage.trim()
      ? connection.transferMessage
      : agent
        ? TRANSFER_TO_USER_MESSAGE
        : TRANSFER_TO_QUEUE_MESSAGE;
    // a transfer to no area and no agent has nothing to name
    if (text === TRANSFER_TO_QUEUE_MESSAGE && !facts.queue) return null;
    return fillTemplate(text, facts);
  }
  // the ticket's area speaks for itself when it has its own text, else the connection does
  const queue = after.queueId ? await q.queues.findById(after.queueId) : null;
  if (after.awaitingRating) return ratingQuestion(ownText(queue?.ratingMessage) ?? connection?.ratingMessage, facts);
  const completion = ownText(queue?.complationMessage) ?? ownText(connection?.complationMessage);
  return completion ? fillTemplate(completion, facts) : null;
}
