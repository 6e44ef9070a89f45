import type { TicketView } from "@charla/contracts";
import type { InboundMessage } from "../channels/driver.js";
import type { Services } from "../context.js";
import { type PromptAutomation, runPromptTurn } from "../automation/ai-turn.js";
import { type Allowed, automationOf } from "../automation/resolve.js";
import { runTypebotTurn } from "../automation/typebot.js";
import { scoped } from "../db/scoped.js";
import { walkTree } from "./option-tree.js";
import { outOfHours } from "./out-of-hours.js";
import { chooseQueue, greetingStep } from "./queue-choice.js";
import { type BotWorld, NOTHING, type Step, applyStep, loadTicket, loadWorld } from "./state.js";
import { owesTurn } from "./turns.js";

/**
 * What the bot answers a message of a ticket no agent holds (behaviours: inbound path 10–12): out of
 * hours the notice and nothing else; without a queue the queue choice; in a tree the next step.
 */
export async function decide(w: BotWorld, input: string): Promise<Step> {
  const { queueId, chatbot } = w.ticket;
  const queue = queueId ? await w.q.queues.findById(queueId) : null;
  const closed = outOfHours(w, queue);
  if (closed) return closed;
  if (!queueId) return chooseQueue(w, input);
  if (!chatbot || !queue) return NOTHING;
  const step = await walkTree(w, queue, input);
  if (step !== "main-menu") return step;
  // `#`: queue and place cleared, the main list again (or the only queue's menu)
  const reset = { queueId: null, queueOptionId: null, chatbot: false };
  const fresh = await chooseQueue({ ...w, ticket: { ...w.ticket, ...reset } }, input, true);
  return { patch: { ...reset, ...fresh.patch }, texts: fresh.texts };
}

/**
 * When the bot's step puts the ticket into an area (the queue choice, by number or keyword, the one
 * area of its connection, `#` back into it) or onto an option node, and a prompt answers there
 * (automation/resolve.ts), the prompt answers in this same turn: the customer who picked "2" gets its
 * answer at once. Entering an area, the area's greeting goes first (the company wrote it for whoever
 * comes in) and the prompt goes on from it; the option tree's menu is not sent, as the area's prompt
 * answers before its tree (behaviours: inbound path 12). Reaching a node, its message goes first.
 * Null when no prompt answers there, or the area is closed (its notice is all): the step as decided.
 */
async function promptOnEntry(w: BotWorld, step: Step, allowed: Allowed): Promise<{ auto: PromptAutomation; lead: Step } | null> {
  const patch = step.patch ?? {};
  const area = patch.queueId !== undefined && patch.queueId !== null;
  const node = patch.queueOptionId !== undefined && patch.queueOptionId !== null;
  if (!allowed.prompt || (!area && !node)) return null;
  const ticket = { ...w.ticket, ...patch };
  const queue = ticket.queueId !== null ? await w.q.queues.findById(ticket.queueId) : null;
  if (!queue || outOfHours(w, queue) !== null) return null;
  const auto = await automationOf(w.q, ticket, allowed);
  if (auto?.kind !== "prompt") return null;
  if (auto.scope === `queue:${queue.id}` && area) return { auto, lead: greetingStep(w, queue, patch) };
  return { auto, lead: step };
}

/**
 * The bot's turn on a stored message (`message.received`). Nothing for what the company sent, groups,
 * a ticket an agent holds or a closed one (a rating answer is stored there), a conversation the company
 * started (modules/tickets/openings.ts), or a message older than
 * the ticket's latest received one (delivered late), or one the bot already answered (chatbot/turns.ts:
 * the owed-turn sweep got there first). A replayed event never gets here: the pipeline stores it once
 * and publishes it once.
 */
export async function runChatbot(
  s: Services,
  result: {
    companyId: number;
    ticketId: number;
    messageId: number;
    msg: Pick<InboundMessage, "fromMe" | "isGroup" | "body">;
    ticket?: TicketView;
  },
): Promise<void> {
  const { msg, ticket: seen } = result;
  if (msg.fromMe || msg.isGroup) return;
  // what the pipeline already knows spares the bot a query for most of an agent's messages
  if (seen && (seen.isGroup || seen.status === "closed" || seen.userId !== null)) return;
  const q = scoped(s.db, result.companyId);
  const loaded = await loadTicket(q, result.ticketId, result.messageId);
  if (!loaded) return;
  const { ticket } = loaded;
  if (ticket.isGroup || ticket.status === "closed" || ticket.userId !== null) return;
  // the company started this conversation (a schedule, the API): its people answer, not the menus
  if (ticket.startedByCompany) return;
  if (loaded.late || !owesTurn(ticket, result.messageId)) return;
  // in its queue, out of the bot, no hours to keep: the ticket waits for a human, nothing more to read
  // unless the company has something that may talk to it (a prompt, a typebot: automation/resolve.ts)
  const waiting = ticket.queueId !== null && !ticket.chatbot && loaded.scheduleType === "disabled";
  const allowed = loaded.automation;
  if (waiting && !allowed.prompt && !allowed.typebot) return;
  const w = loadWorld(s, q, loaded);
  if (!w) return;
  // what the plan does not allow is passed for the next place, else the usual flow goes on
  const auto = allowed.prompt || allowed.typebot ? await automationOf(q, ticket, allowed) : null;
  if (!auto) {
    if (waiting) return;
    const step = await decide(w, msg.body);
    const entered = await promptOnEntry(w, step, allowed);
    if (entered) return runPromptTurn(w, entered.auto, msg.body, entered.lead);
    return applyStep(w, step);
  }
  // out of hours the notice and nothing else, as for the menus; then the automation talks
  const queue = w.scheduleType === "queue" && ticket.queueId ? await q.queues.findById(ticket.queueId) : null;
  const closed = outOfHours(w, queue);
  if (closed) return applyStep(w, closed);
  if (auto.kind === "prompt") return runPromptTurn(w, auto, msg.body);
  return runTypebotTurn(w, auto, msg.body);
}
