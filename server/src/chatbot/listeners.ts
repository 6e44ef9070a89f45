import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { DELIVERY_LISTENER, deliveryLane } from "../modules/messages/automatic.js";
import { runChatbot } from "./flow.js";
import { settleTurn } from "./turns.js";

const CHATBOT = "chatbot";
const laneOf = (companyId: number, ticketId: number) => `${companyId}:${ticketId}`;

/**
 * The chatbot and working hours (behaviours: inbound path 9–12) hear every stored message, one
 * ticket's after another in the order they were stored, off the inbound path: storing a contact's
 * next message (and everyone else's) never waits for the bot's reads and replies, which cost more
 * than the message itself, and the bot never holds the contact's or the driver's chat lane.
 * A turn lost with a crash comes back as `chatbot.turn-owed` on the same lane, so on this node it
 * never runs beside a live turn of its ticket (on two nodes, chatbot/turns.ts keeps it to one answer).
 */
export function registerChatbot(s: Services): void {
  s.events.on("message.received", { id: CHATBOT, phase: "detached", lane: (e) => laneOf(e.companyId, e.ticketId) }, (e) =>
    runChatbot(s, e),
  );
  s.events.on(
    "chatbot.turn-owed",
    { id: CHATBOT, phase: "detached", lane: (e) => laneOf(e.companyId, e.ticketId) },
    async (e) => {
      await runChatbot(s, { ...e, msg: { fromMe: false, isGroup: false, body: e.body } });
      // a turn that had nothing to write is answered all the same: the sweep must not find it again
      await settleTurn(scoped(s.db, e.companyId), e.ticketId, e.messageId);
    },
  );
}

/** Resolves once the bot has taken every turn of this ticket published to it so far (its texts may still be going out). */
export async function turnsTaken(s: Services, companyId: number, ticketId: number): Promise<void> {
  await s.events.settled(CHATBOT, laneOf(companyId, ticketId));
}

/**
 * Resolves once the bot has answered every message of this ticket stored so far and its texts (and a
 * rating's reply) went out: the simulator shows them with the message, as a phone would a moment later.
 */
export async function chatbotDone(s: Services, companyId: number, ticketId: number): Promise<void> {
  await turnsTaken(s, companyId, ticketId);
  await s.events.settled(DELIVERY_LISTENER, deliveryLane(companyId, ticketId));
}
