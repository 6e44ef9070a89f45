import { asc, eq, isNull, sql } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { queueOptions } from "../db/schema/index.js";
import { BACK, MAIN_MENU, labelOf, optionMenuText, pickChoice } from "./menus.js";
import { type BotWorld, type QueueRow, type Step, fill } from "./state.js";

type OptionRow = typeof queueOptions.$inferSelect;

// "10" after "9": labels are numbers kept as text (as the Areas page lists them)
const siblingOrder = [sql`length(${queueOptions.option})`, asc(queueOptions.option), asc(queueOptions.id)];

/** One level of a queue's tree: the roots (parent null) or a node's children, in label order. */
export function childrenOf(q: Scoped, queueId: number, parentId: number | null): Promise<OptionRow[]> {
  return q.db
    .select()
    .from(queueOptions)
    .where(
      q.queueOptions.where(
        eq(queueOptions.queueId, queueId),
        parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    )
    .orderBy(...siblingOrder);
}

/**
 * Whether a node points at someone who talks (its prompt, or a typebot: a webhook or n8n integration
 * only receives deliveries) that has not yet handed this ticket over.
 */
async function hasAutomation(w: BotWorld, node: OptionRow): Promise<boolean> {
  if (node.qIntegrationId === null && node.promptId === null) return false;
  if (w.ticket.automationDone.includes(`option:${node.id}`)) return false;
  if (node.promptId !== null && (await w.q.prompts.findById(node.promptId))) return true;
  if (node.qIntegrationId === null) return false;
  const integration = await w.q.queueIntegrations.findById(node.qIntegrationId);
  return integration?.type === "typebot";
}

/** The queue's own menu: its greeting and the root options. */
export function rootMenu(w: BotWorld, queue: QueueRow, roots: readonly OptionRow[]): string {
  return optionMenuText(fill(w, queue.greetingMessage, queue), roots, true);
}

function nodeMenu(w: BotWorld, queue: QueueRow, node: OptionRow, children: readonly OptionRow[]): string {
  return optionMenuText(fill(w, node.message, queue), children, false);
}

/** Shows a place of the tree: the root, or a node (with its children) the contact is now at. */
async function showPlace(w: BotWorld, queue: QueueRow, node: OptionRow | null): Promise<Step> {
  const children = await childrenOf(w.q, queue.id, node?.id ?? null);
  if (!node) return { patch: { queueOptionId: null }, texts: [rootMenu(w, queue, children)] };
  return { patch: { queueOptionId: node.id }, texts: [nodeMenu(w, queue, node, children)] };
}

/**
 * One answer inside a queue's option tree (behaviours: Option tree). A child's label moves there (a
 * leaf sends its message and ends the bot: the ticket waits in its queue; a node with a typebot or a
 * prompt sends its message and leaves the next one to that automation), `0` goes up a level, `#`
 * asks for the main menu (the caller resets the queue), anything else repeats the current menu.
 */
export async function walkTree(w: BotWorld, queue: QueueRow, input: string): Promise<Step | "main-menu"> {
  const typed = labelOf(input);
  if (typed === MAIN_MENU) return "main-menu";
  const found = w.ticket.queueOptionId ? await w.q.queueOptions.findById(w.ticket.queueOptionId) : null;
  // a node deleted (or moved to another queue) since: the contact is back at the queue's root
  const here = found && found.queueId === queue.id ? found : null;
  if (typed === BACK) {
    // the root's way back is the main menu
    if (!here) return "main-menu";
    const parent = here.parentId ? await w.q.queueOptions.findById(here.parentId) : null;
    return showPlace(w, queue, parent);
  }
  const children = await childrenOf(w.q, queue.id, here?.id ?? null);
  // the queue's options were all deleted while the contact was in them: the bot lets go
  if (!here && children.length === 0) return { patch: { chatbot: false, queueOptionId: null }, texts: [] };
  const chosen = pickChoice(
    input,
    children,
    (c) => c.option,
    (c) => c.title,
    w.keyword,
  );
  if (!chosen) {
    return { texts: [here ? nodeMenu(w, queue, here, children) : rootMenu(w, queue, children)] };
  }
  // a node with its own typebot or AI prompt hands the conversation to it: the contact stands there, the
  // bot still in charge, and its next message is the automation's (automation/resolve.ts, scope option)
  if (await hasAutomation(w, chosen)) return { patch: { queueOptionId: chosen.id }, texts: [fill(w, chosen.message, queue)] };
  const next = await childrenOf(w.q, queue.id, chosen.id);
  if (next.length === 0) return { patch: { chatbot: false, queueOptionId: null }, texts: [fill(w, chosen.message, queue)] };
  return { patch: { queueOptionId: chosen.id }, texts: [nodeMenu(w, queue, chosen, next)] };
}
