import { KeyedQueue } from "../lib/keyed-queue.js";
import { afterInboundHooks } from "../pipeline/inbound.js";
import type { Services } from "../context.js";
import { runChatbot } from "./flow.js";

export { DEFAULT_RATING_MESSAGE, RATING_SCALE, ratingQuestion } from "./rating-question.js";

/**
 * The bot's steps, one ticket's after another in the order its messages were stored, apart from the
 * inbound path: storing a contact's next message (and everyone else's) never waits for the bot's
 * reads and replies, which cost more than the message itself.
 */
const steps = new KeyedQueue();
const keyOf = (companyId: number, ticketId: number) => `${companyId}:${ticketId}`;

const detached: (typeof afterInboundHooks)[number] = async (s: Services, source, result) => {
  void steps.run(keyOf(source.companyId, result.ticketId), () =>
    runChatbot(s, source, result).catch((err) => s.log.error({ err, ticketId: result.ticketId }, "chatbot step failed")),
  );
};

/** Hooks the chatbot and working hours into the inbound path (behaviours: inbound path 9–12); once per process. */
export function registerChatbot(): void {
  if (!afterInboundHooks.includes(detached)) afterInboundHooks.push(detached);
}

/** Resolves once the bot has answered every message of this ticket stored so far (the simulator waits for it). */
export async function chatbotDone(companyId: number, ticketId: number): Promise<void> {
  const key = keyOf(companyId, ticketId);
  if (steps.busy(key)) await steps.run(key, async () => undefined);
}

/** Resolves once no ticket has a bot step under way (shutdown, tests). */
export function chatbotIdle(): Promise<void> {
  return steps.idle();
}
