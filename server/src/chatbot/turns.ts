import { eq, isNull, lt, ne, or } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { tickets } from "../db/schema/index.js";

/**
 * The bot answers each received message at most once, whoever runs its turn: the live listener right
 * after the message's commit, the owed-turn sweep after a crash lost that (jobs/bot-turns.ts), or two
 * nodes at once. The turn's transaction moves `tickets.bot_answered_message_id` forwards to the message
 * it answered, and its texts commit only if that move took; a turn for a message already answered, or
 * older than one answered, writes nothing.
 */
export const notAnsweredYet = (messageId: number) =>
  or(isNull(tickets.botAnsweredMessageId), lt(tickets.botAnsweredMessageId, messageId));

/** Whether a ticket (as read, or locked) still owes the bot's turn on this message. */
export function owesTurn(ticket: { botAnsweredMessageId: number | null }, messageId: number): boolean {
  return ticket.botAnsweredMessageId === null || ticket.botAnsweredMessageId < messageId;
}

/**
 * Takes the turn on `messageId` for a step that changes nothing else on the ticket: true when this
 * transaction now holds it (the ticket still in the bot's hands: no agent took it, not closed).
 */
export async function claimTurn(q: Scoped, ticketId: number, messageId: number): Promise<boolean> {
  const rows = await q.db
    .update(tickets)
    .set({ botAnsweredMessageId: messageId })
    .where(
      q.tickets.where(eq(tickets.id, ticketId), isNull(tickets.userId), ne(tickets.status, "closed"), notAnsweredYet(messageId)),
    )
    .returning({ id: tickets.id });
  return rows.length > 0;
}

/**
 * Marks a turn the bot took without writing (nothing to say, a late message, a ticket it no longer
 * handles) as answered, so the owed-turn sweep does not take it again. Only the sweep needs it: the
 * live listener's silent turns are left for the sweep to settle once, after its margin.
 */
export async function settleTurn(q: Scoped, ticketId: number, messageId: number): Promise<void> {
  await q.db
    .update(tickets)
    .set({ botAnsweredMessageId: messageId })
    .where(q.tickets.where(eq(tickets.id, ticketId), notAnsweredYet(messageId)));
}
