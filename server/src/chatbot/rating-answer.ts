import { and, desc, eq, sql } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { companies, contacts, queues, tickets, users, whatsapps } from "../db/schema/index.js";
import { rateEpisode } from "../modules/tickets/episodes.js";
import { endRatingWait } from "../modules/tickets/transitions.js";
import { type TemplateFacts, fillTemplate } from "../lib/template.js";
import { clock } from "./clock.js";
import { RATING_ANSWERS, ratingQuestion } from "./rating-question.js";

type TicketRow = typeof tickets.$inferSelect;

/** How often the question is asked at most: once on resolve, once more after an answer that is not 1–3. */
export const MAX_RATING_ASKS = 2;

/** What a contact's message did to their ticket waiting for a rating (behaviours: Rating). */
export type RatingAnswer =
  | { kind: "rated"; ticket: TicketRow; rate: number }
  | { kind: "asked-again"; ticket: TicketRow }
  | { kind: "gave-up" };

/**
 * Inside the inbound transaction, before the message's ticket is chosen: the contact's ticket on this
 * connection waiting for a rating (closed, awaitingRating; the partial index
 * tickets_company_awaiting_rating_idx), locked, and what the message does to it:
 * - exactly 1, 2 or 3: the rating is stored for the ticket and its agent, the ticket's last episode
 *   is marked rated, the wait ends; the message belongs to that closed ticket, which stays closed;
 * - anything else, asked fewer than twice: asked again (the message also stays on the closed ticket);
 * - else the wait ends and the message starts a new conversation (a new ticket, never this one reopened).
 * Null when no rating is awaited. The caller records the completion or the question in the same
 * transaction (`ratingReply`), to be sent after its commit.
 */
export async function takeRatingAnswer(
  q: Scoped,
  contactId: number,
  whatsappId: number,
  body: string,
): Promise<RatingAnswer | null> {
  const waiting = await q.db
    .select()
    .from(tickets)
    .where(
      q.tickets.where(
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        sql`${tickets.awaitingRating}`,
        eq(tickets.status, "closed"),
      ),
    )
    .orderBy(desc(tickets.id))
    .for("update");
  if (waiting.length === 0) return null;
  const [ticket, ...older] = waiting;
  // only the latest resolved ticket is rated: an older question left unanswered is dropped
  await endRatingWait(
    q,
    older.map((t) => t.id),
  );
  const typed = body.trim();
  if ((RATING_ANSWERS as readonly string[]).includes(typed)) {
    const rate = Number(typed);
    const now = clock.now();
    await q.userRatings.insert({ ticketId: ticket.id, userId: ticket.userId, rate });
    await rateEpisode(q, ticket.id, now);
    return { kind: "rated", rate, ticket: await patch(q, ticket.id, { awaitingRating: false }) };
  }
  if (ticket.ratingAsks < MAX_RATING_ASKS) {
    return { kind: "asked-again", ticket: await patch(q, ticket.id, { ratingAsks: ticket.ratingAsks + 1 }) };
  }
  await endRatingWait(q, [ticket.id]);
  return { kind: "gave-up" };
}

// not q.tickets.update: the closed list's order (updatedAt) is not the rating's business
async function patch(q: Scoped, id: number, values: Partial<TicketRow>): Promise<TicketRow> {
  const [row] = await q.db
    .update(tickets)
    .set(values)
    .where(q.tickets.where(eq(tickets.id, id)))
    .returning();
  return row;
}

/**
 * The reply to a rating answer, read in the inbound transaction so it is recorded with the answer: a
 * rating's completion message (the area's, else the connection's), or the question asked once more.
 * A given-up wait has none: the bot greets the new conversation. Null when the text is empty.
 */
export async function ratingReply(q: Scoped, answer: RatingAnswer): Promise<string | null> {
  if (answer.kind === "gave-up") return null;
  const companyId = q.companyId;
  const { ticket } = answer;
  const [facts] = await q.db
    .select({
      complationMessage: whatsapps.complationMessage,
      ratingMessage: whatsapps.ratingMessage,
      queueCompletion: queues.complationMessage,
      queueRating: queues.ratingMessage,
      contactName: contacts.name,
      contactEmail: contacts.email,
      timeZone: companies.timeZone,
      queueName: queues.name,
      userName: users.name,
    })
    .from(contacts)
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .leftJoin(whatsapps, and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, ticket.whatsappId ?? -1)))
    .leftJoin(queues, and(eq(queues.companyId, companyId), eq(queues.id, ticket.queueId ?? -1)))
    .leftJoin(users, and(eq(users.companyId, companyId), eq(users.id, ticket.userId ?? -1)))
    .where(q.contacts.where(eq(contacts.id, ticket.contactId)));
  if (!facts) return null;
  const template: TemplateFacts = {
    name: facts.contactName,
    email: facts.contactEmail,
    user: facts.userName ?? undefined,
    queue: facts.queueName ?? undefined,
    ticketId: ticket.id,
    timeZone: facts.timeZone,
    now: clock.now(),
  };
  // the ticket's area speaks for itself when it has its own text, else the connection does
  const body =
    answer.kind === "rated"
      ? fillTemplate((facts.queueCompletion?.trim() ? facts.queueCompletion : facts.complationMessage) ?? "", template)
      : ratingQuestion(facts.queueRating?.trim() ? facts.queueRating : facts.ratingMessage, template);
  return body.trim() ? body : null;
}
