import { DeliveryTypes } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
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

type Pointer = { promptId: number | null; integrationId: number | null };

/**
 * The automation that answers this ticket's next message, or null for the usual bot (menus, queue
 * choice) or a ticket waiting for humans. Decided from the ticket's own fields first: a ticket that
 * holds one (`useIntegration`) keeps it until it hands over. Otherwise the ticket's place offers one:
 * the option node it stands on, else its area, else (no area yet) its connection; a scope that already
 * handed this ticket over (`automationDone`) does not take it again, nor does one whose prompt or
 * integration is gone, or whose integration only receives deliveries (webhook, n8n: automation/deliveries).
 * Only for tickets no agent holds: the caller checks that.
 */
export async function automationOf(q: Scoped, ticket: TicketRow): Promise<Automation | null> {
  const places = placesOf(q, ticket);
  if (ticket.useIntegration) {
    const held = { promptId: ticket.promptId, integrationId: ticket.integrationId };
    return resolvePointer(q, held, await heldScope(places, held), false);
  }
  for (const [scope, read] of places) {
    // a connection's automation is for tickets that have no area yet
    if (scope.startsWith("connection:") && ticket.queueId !== null) continue;
    if (ticket.automationDone.includes(scope)) continue;
    const pointer = await read();
    if (!pointer) continue;
    const found = await resolvePointer(q, pointer, scope, true);
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
            .select({ promptId: queues.promptId, integrationId: queues.integrationId })
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
        ? p.promptId === held.promptId
        : held.integrationId !== null && p.integrationId === held.integrationId;
    if (same) return scope;
  }
  return places[0]?.[0] ?? "connection:0";
}

async function resolvePointer(q: Scoped, p: Pointer, scope: AutomationScope, assign: boolean): Promise<Automation | null> {
  if (p.promptId !== null) {
    const [prompt] = await q.db
      .select()
      .from(prompts)
      .where(q.prompts.where(eq(prompts.id, p.promptId)));
    if (prompt) {
      return {
        kind: "prompt",
        prompt,
        scope,
        assign: assign ? { useIntegration: true, promptId: prompt.id, integrationId: null } : null,
      };
    }
  }
  if (p.integrationId !== null) {
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
  return null;
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

/** Whether an integration type receives deliveries (a signed POST per received message) rather than talking. */
export const isDeliveryType = (type: string) => (DeliveryTypes as readonly string[]).includes(type);
