import type { Services } from "../context.js";
import { DELIVERY_LISTENER, deliveryLane } from "../modules/messages/automatic.js";
import { runChatbot } from "./flow.js";

const CHATBOT = "chatbot";
const laneOf = (companyId: number, ticketId: number) => `${companyId}:${ticketId}`;

/**
 * The chatbot and working hours (behaviours: inbound path 9–12) hear every stored message, one
 * ticket's after another in the order they were stored, off the inbound path: storing a contact's
 * next message (and everyone else's) never waits for the bot's reads and replies, which cost more
 * than the message itself, and the bot never holds the contact's or the driver's chat lane.
 */
export function registerChatbot(s: Services): void {
  s.events.on("message.received", { id: CHATBOT, phase: "detached", lane: (e) => laneOf(e.companyId, e.ticketId) }, (e) =>
    runChatbot(s, e),
  );
}

/**
 * Resolves once the bot has answered every message of this ticket stored so far and its texts (and a
 * rating's reply) went out: the simulator shows them with the message, as a phone would a moment later.
 */
export async function chatbotDone(s: Services, companyId: number, ticketId: number): Promise<void> {
  await s.events.settled(CHATBOT, laneOf(companyId, ticketId));
  await s.events.settled(DELIVERY_LISTENER, deliveryLane(companyId, ticketId));
}
