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
  if (ticket.useIntegration) {
    const scope = (ticket.automationDone.at(-1) as AutomationScope | undefined) ?? currentScope(ticket);
    return resolvePointer(q, { promptId: ticket.promptId, integrationId: ticket.integrationId }, scope, false);
  }
  const candidates: [AutomationScope, () => Promise<Pointer | null>][] = [];
  if (ticket.queueOptionId !== null) {
    const id = ticket.queueOptionId;
    candidates.push([
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
    candidates.push([
      `queue:${id}`,
      async () =>
        (
          await q.db
            .select({ promptId: queues.promptId, integrationId: queues.integrationId })
            .from(queues)
            .where(q.queues.where(eq(queues.id, id)))
        )[0] ?? null,
    ]);
  } else if (ticket.whatsappId !== null) {
    const id = ticket.whatsappId;
    candidates.push([
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
  for (const [scope, read] of candidates) {
    if (ticket.automationDone.includes(scope)) continue;
    const pointer = await read();
    if (!pointer) continue;
    const found = await resolvePointer(q, pointer, scope, true);
    if (found) return found;
  }
  return null;
}

/** The scope a ticket holding an automation got it from, as far as its place tells (for a handover's record). */
function currentScope(ticket: TicketRow): AutomationScope {
  if (ticket.queueOptionId !== null) return `option:${ticket.queueOptionId}`;
  if (ticket.queueId !== null) return `queue:${ticket.queueId}`;
  return `connection:${ticket.whatsappId ?? 0}`;
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
