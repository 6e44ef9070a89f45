/**
 * How long the chatbot keeps a ticket to itself after the conversation last moved. While the bot
 * waits for the contact's answer (chatbot = true) the area's agents only read the ticket (issue 26);
 * a contact who stopped answering the menus leaves the flag set for good (nothing clears it until the
 * next message), so past this the ticket is theirs to take like any pending one.
 */
export const BOT_HOLD_MS = 15 * 60_000;

/** The ticket facts the hold is read from: its flag and its last activity (messages, changes). */
export type BotHoldFacts = { chatbot: boolean; updatedAt: string | Date };

const timeOf = (at: string | Date) => (typeof at === "string" ? Date.parse(at) : at.getTime());

/** When the bot's hold on the ticket ends (ms since the epoch), or null when the bot does not hold it. */
export function botHoldEndsAt(t: BotHoldFacts, now: number = Date.now()): number | null {
  if (!t.chatbot) return null;
  const ends = timeOf(t.updatedAt) + BOT_HOLD_MS;
  return Number.isFinite(ends) && ends > now ? ends : null;
}

/**
 * Whether the chatbot is still serving the ticket: an agent may read it but not accept, answer,
 * transfer or resolve it (ERR_TICKET_IN_CHATBOT); staff may take over at any time.
 */
export function heldByBot(t: BotHoldFacts, now: number = Date.now()): boolean {
  return botHoldEndsAt(t, now) !== null;
}
