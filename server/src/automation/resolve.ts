import { DeliveryTypes } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { prompts, queueIntegrations, queueOptions, queues, type tickets, whatsapps } from "../db/schema/index.js";

type TicketRow = typeof tickets.$inferSelect;
export type PromptRow = typeof prompts.$inferSelect;
export type IntegrationRow = typeof queueIntegrations.$inferSelect;

/** Where an automation was pointed at: a connection, an area, or a node of an area's option tree. */
export type AutomationScope = `connection:${number}` | `queue:${number}` | `option:${number}`;

/**
 * Who talks to a ticket in the bot's hands instead of the menus: an AI prompt or a typebot, and the
 * scope that chose it. `assign` is the ticket patch that records the choice (null when the ticket
 * already holds it: `useIntegration` with its `promptId` / `integrationId`).
 */
export type Automation =
  | { kind: "prompt"; prompt: PromptRow; scope: AutomationScope; assign: AutomationPatch | null }
  | { kind: "typebot"; integration: IntegrationRow; scope: AutomationScope; assign: AutomationPatch | null };

export type AutomationPatch = Pick<TicketRow, "useIntegration" | "promptId" | "integrationId">;

/**
 * What a place points at: its own prompt and integration and, for an area, the prompt bound to it
 * (`prompts.queueId`, the area the prompt dialog requires; the lowest id when several are).
 */
type Pointer = { promptId: number | null; integrationId: number | null; boundPromptId?: number | null };

/** What the company's plan lets talk (loadTicket's `automation`): prompts with useOpenAi, typebots with useIntegrations. */
export type Allowed = { prompt: boolean; typebot: boolean };
const EVERYTHING: Allowed = { prompt: true, typebot: true };

/**
 * The automation that answers this ticket's next message, or null for the usual bot (menus, queue
 * choice) or a ticket waiting for humans. Which one answers (README, "Which prompt answers"):
 * 1. the one the ticket holds (`useIntegration`), until it hands over;
 * 2. the option node the ticket stands on: its prompt, else its typebot;
 * 3. the ticket's area: its own prompt (`queues.promptId`), else its typebot, else a prompt bound to
 *    the area (`prompts.queueId`; the oldest, lowest id, when several are): a prompt saved with its
 *    area answers that area's customers with no other step;
 * 4. only for a ticket without an area: its connection's prompt, else its typebot.
 * A scope that already handed this ticket over (`automationDone`) does not take it again, nor does one
 * whose prompt or integration is gone, or whose integration only receives deliveries (webhook, n8n:
 * automation/deliveries), or whose kind the plan does not allow (`allowed`): the next place is asked.
 * Only for tickets no agent holds: the caller checks that.
 */
export async function automationOf(q: Scoped, ticket: TicketRow, allowed: Allowed = EVERYTHING): Promise<Automation | null> {
  const places = placesOf(q, ticket);
  if (ticket.useIntegration) {
    const held = { promptId: ticket.promptId, integrationId: ticket.integrationId };
    return resolvePointer(q, held, await heldScope(places, held), false, allowed);
  }
  for (const [scope, read] of places) {
    // a connection's automation is for tickets that have no area yet
    if (scope.startsWith("connection:") && ticket.queueId !== null) continue;
    if (ticket.automationDone.includes(scope)) continue;
    const pointer = await read();
    if (!pointer) continue;
    const found = await resolvePointer(q, pointer, scope, true, allowed);
    if (found) return found;
  }
  return null;
}

type Place = [AutomationScope, () => Promise<Pointer | null>];

/** The ticket's places that may point at an automation, nearest first: its option node, its area, its connection. */
function placesOf(q: Scoped, ticket: TicketRow): Place[] {
  const places: Place[] = [];
  if (ticket.queueOptionId !== null) {
    const id = ticket.queueOptionId;
    places.push([
      `option:${id}`,
      async () =>
        (
          await q.db
            .select({ promptId: queueOptions.promptId, integrationId: queueOptions.qIntegrationId })
            .from(queueOptions)
            .where(q.queueOptions.where(eq(queueOptions.id, id)))
        )[0] ?? null,
    ]);
  }
  if (ticket.queueId !== null) {
    const id = ticket.queueId;
    places.push([
      `queue:${id}`,
      async () =>
        (
          await q.db
            .select({
              promptId: queues.promptId,
              integrationId: queues.integrationId,
              // a subquery built by drizzle: columns in a select's raw sql would not be qualified
              boundPromptId: sql<number | null>`(${q.db
                .select({ id: sql`min(${prompts.id})` })
                .from(prompts)
                .where(q.prompts.where(eq(prompts.queueId, queues.id)))})`,
            })
            .from(queues)
            .where(q.queues.where(eq(queues.id, id)))
        )[0] ?? null,
    ]);
  }
  if (ticket.whatsappId !== null) {
    const id = ticket.whatsappId;
    places.push([
      `connection:${id}`,
      async () =>
        (
          await q.db
            .select({ promptId: whatsapps.promptId, integrationId: whatsapps.integrationId })
            .from(whatsapps)
            .where(q.whatsapps.where(eq(whatsapps.id, id)))
        )[0] ?? null,
    ]);
  }
  return places;
}

/**
 * The place a held automation came from, so its hand-over records that one (not, say, the connection's
 * typebot that handed over earlier): the nearest place pointing at what the ticket holds. When none
 * does any more (changed meanwhile), the nearest place, which then does not take the ticket back.
 */
async function heldScope(places: Place[], held: Pointer): Promise<AutomationScope> {
  for (const [scope, read] of places) {
    const p = await read();
    if (!p) continue;
    const same =
      held.promptId !== null
        ? p.promptId === held.promptId || p.boundPromptId === held.promptId
        : held.integrationId !== null && p.integrationId === held.integrationId;
    if (same) return scope;
  }
  return places[0]?.[0] ?? "connection:0";
}

/** A place's automation, in its order: its prompt, its typebot, the prompt bound to it; what the plan allows only. */
async function resolvePointer(
  q: Scoped,
  p: Pointer,
  scope: AutomationScope,
  assign: boolean,
  allowed: Allowed,
): Promise<Automation | null> {
  const own = allowed.prompt ? await promptOf(q, p.promptId, scope, assign) : null;
  if (own) return own;
  if (allowed.typebot && p.integrationId !== null) {
    const [integration] = await q.db
      .select()
      .from(queueIntegrations)
      .where(q.queueIntegrations.where(and(eq(queueIntegrations.id, p.integrationId), eq(queueIntegrations.type, "typebot"))));
    if (integration) {
      return {
        kind: "typebot",
        integration,
        scope,
        assign: assign ? { useIntegration: true, promptId: null, integrationId: integration.id } : null,
      };
    }
  }
  return allowed.prompt ? promptOf(q, p.boundPromptId ?? null, scope, assign) : null;
}

async function promptOf(q: Scoped, id: number | null, scope: AutomationScope, assign: boolean): Promise<Automation | null> {
  if (id === null) return null;
  const [prompt] = await q.db
    .select()
    .from(prompts)
    .where(q.prompts.where(eq(prompts.id, id)));
  if (!prompt) return null;
  return {
    kind: "prompt",
    prompt,
    scope,
    assign: assign ? { useIntegration: true, promptId: prompt.id, integrationId: null } : null,
  };
}

/**
 * The ticket patch that ends an automation's conversation: the ticket is no longer held by it, and the
 * scope is remembered so the same automation does not start again on the next message. `queueId`
 * (a prompt's "Informar al sector") moves the ticket to the area whose humans take it.
 */
export function handOverPatch(ticket: TicketRow, scope: AutomationScope, queueId?: number | null) {
  return {
    useIntegration: false,
    automationDone: ticket.automationDone.includes(scope) ? ticket.automationDone : [...ticket.automationDone, scope],
    chatbot: false,
    ...(queueId ? { queueId, queueOptionId: null } : {}),
  };
}

/**
 * A prompt's hand-over to the humans (automation/ai-turn.ts): as `handOverPatch`, and the area the ticket
 * ends in is done with automation too. The customer was sent to that area's humans, so neither the
 * area's prompt nor a prompt bound to it (often the very prompt that handed over) answers them again.
 */
export function toHumansPatch(ticket: TicketRow, scope: AutomationScope, queueId?: number | null) {
  const patch = handOverPatch(ticket, scope, queueId);
  const area = queueId || ticket.queueId;
  if (area === null) return patch;
  const done: AutomationScope = `queue:${area}`;
  return patch.automationDone.includes(done) ? patch : { ...patch, automationDone: [...patch.automationDone, done] };
}

/** Whether an integration type receives deliveries (a signed POST per received message) rather than talking. */
export const isDeliveryType = (type: string) => (DeliveryTypes as readonly string[]).includes(type);
