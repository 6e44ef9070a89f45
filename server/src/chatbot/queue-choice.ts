import { and, eq } from "drizzle-orm";
import { queues, whatsappQueues } from "../db/schema/index.js";
import { Binds, shaped } from "../db/shaped.js";
import { queueOrder } from "../modules/queues/queries.js";
import { pickChoice, queueListText } from "./menus.js";
import { childrenOf, rootMenu } from "./option-tree.js";
import { outOfHours } from "./out-of-hours.js";
import { type BotPatch, type BotWorld, NOTHING, type QueueRow, type Step, fill } from "./state.js";

/** The connection's queues in the chatbot's order (orderQueue, nulls last, then name). */
export async function connectionQueues(w: BotWorld): Promise<QueueRow[]> {
  // read for every new conversation: built once (db/shaped.ts), a queue row is many columns to build
  const b = new Binds();
  const company = b.v("companyId", w.q.companyId);
  const on = and(
    eq(whatsappQueues.companyId, company),
    eq(whatsappQueues.whatsappId, b.v("whatsappId", w.connection.id)),
    eq(whatsappQueues.queueId, queues.id),
  );
  const rows = await shaped(w.q.db, "chatbot.connectionQueues", b, () =>
    w.q.db
      .select({ queue: queues })
      .from(queues)
      .innerJoin(whatsappQueues, on)
      .where(eq(queues.companyId, company))
      .orderBy(...queueOrder),
  );
  return rows.map((r) => r.queue);
}

/**
 * The ticket enters a queue: its option tree starts when it has one (chatbot = true at the root),
 * else the queue's greeting is all; with scheduleType queue and the queue closed, the out-of-hours
 * notice goes instead, and the tree waits for the next message.
 */
export async function enterQueue(w: BotWorld, queue: QueueRow): Promise<Step> {
  const roots = await childrenOf(w.q, queue.id, null);
  const patch = { queueId: queue.id, queueOptionId: null, chatbot: roots.length > 0 };
  const closed = outOfHours(w, queue);
  if (closed) return { patch: { ...patch, ...closed.patch }, texts: closed.texts };
  return { patch, texts: [roots.length > 0 ? rootMenu(w, queue, roots) : fill(w, queue.greetingMessage, queue)] };
}

/**
 * The ticket enters a queue whose prompt answers at once (chatbot/flow.ts): the queue's greeting and
 * no option tree, the prompt talks instead of it. `patch`: the entry as decided, whatever else it changes.
 */
export function greetingStep(w: BotWorld, queue: QueueRow, patch: BotPatch): Step {
  return {
    patch: { ...patch, queueId: queue.id, queueOptionId: null, chatbot: false },
    texts: [fill(w, queue.greetingMessage, queue)],
  };
}

/** The connection's greeting and the numbered queues, counted for maxUseBotQueues / timeUseBotQueues. */
function sendList(w: BotWorld, list: QueueRow[]): Step {
  return {
    patch: { chatbot: true, botListCount: w.ticket.botListCount + 1, botListAt: w.now },
    texts: [queueListText(fill(w, w.connection.greetingMessage), list)],
  };
}

/**
 * A message of a ticket without a queue (behaviours: Queue choice). No queue: the connection's greeting,
 * once per ticket. One: assigned at once. Several: the list on the first message, then the answer read
 * as the list's position (or, chatBotType keyword, a queue's name as a word); anything else repeats the
 * list, at most maxUseBotQueues times (0: no limit) and not within timeUseBotQueues minutes of the last,
 * after which the bot gives up (chatbot = false) and the ticket waits for a human.
 * `mainMenu`: the contact typed `#` in a tree: the list is sent whatever the count.
 */
export async function chooseQueue(w: BotWorld, input: string, mainMenu = false): Promise<Step> {
  const list = await connectionQueues(w);
  if (list.length === 0) {
    if (w.ticket.botListCount > 0 || !w.connection.greetingMessage.trim()) return NOTHING;
    return { patch: { botListCount: 1, botListAt: w.now }, texts: [fill(w, w.connection.greetingMessage)] };
  }
  if (list.length === 1) return enterQueue(w, list[0]);
  if (w.ticket.botListCount === 0 || mainMenu) return sendList(w, list);
  // the bot gave up on this ticket: a human answers it
  if (!w.ticket.chatbot) return NOTHING;
  const chosen = pickChoice(
    input,
    list,
    (_, i) => String(i + 1),
    (q) => q.name,
    w.keyword,
  );
  if (chosen) return enterQueue(w, chosen);
  const { maxUseBotQueues: max, timeUseBotQueues: wait } = w.connection;
  if (max > 0 && w.ticket.botListCount >= max) return { patch: { chatbot: false }, texts: [] };
  const last = w.ticket.botListAt?.getTime() ?? 0;
  if (wait > 0 && w.now.getTime() - last < wait * 60_000) return NOTHING;
  return sendList(w, list);
}
