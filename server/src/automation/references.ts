import { and, eq } from "drizzle-orm";
import type { Tx } from "../db/client.js";
import type { Scoped } from "../db/scoped.js";
import { companies, plans, prompts, queueIntegrations, queueOptions, queues, tickets, whatsapps } from "../db/schema/index.js";
import { AppError } from "../lib/app-error.js";

type Refs = { promptId?: number | null; integrationId?: number | null };

/**
 * A form's `promptId` / `integrationId` (areas, options, connections) must name one of the company's
 * own: another company's id answers as not found, like any foreign id. Pointing at a new one also needs
 * the plan's flag (useOpenAi, useIntegrations: core §6); a value the record already holds (`current`)
 * is kept without it, so a plan that lost the flag still lets its areas and connections be edited.
 */
export async function assertOwnAutomation(q: Scoped, refs: Refs, current?: Refs): Promise<void> {
  const newPrompt = refs.promptId != null && refs.promptId !== current?.promptId ? refs.promptId : null;
  const newIntegration = refs.integrationId != null && refs.integrationId !== current?.integrationId ? refs.integrationId : null;
  if (refs.promptId != null) {
    const [p] = await q.db
      .select({ id: prompts.id })
      .from(prompts)
      .where(q.prompts.where(eq(prompts.id, refs.promptId)));
    if (!p) throw new AppError("ERR_NO_PROMPT_FOUND");
  }
  if (refs.integrationId != null) {
    const [i] = await q.db
      .select({ id: queueIntegrations.id })
      .from(queueIntegrations)
      .where(q.queueIntegrations.where(eq(queueIntegrations.id, refs.integrationId)));
    if (!i) throw new AppError("ERR_NO_INTEGRATION_FOUND");
  }
  if (newPrompt === null && newIntegration === null) return;
  const [plan] = await q.db
    .select({ useOpenAi: plans.useOpenAi, useIntegrations: plans.useIntegrations })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, q.companyId));
  if ((newPrompt !== null && !plan?.useOpenAi) || (newIntegration !== null && !plan?.useIntegrations)) {
    throw new AppError("ERR_NO_PERMISSION", { data: { reason: "plan" } });
  }
}

/**
 * Deleting a prompt or an integration, in the caller's transaction: whatever pointed at it (areas,
 * options, connections) no longer does, and tickets it was talking to go back to the usual flow.
 */
export async function clearAutomationRefs(tx: Tx, companyId: number, ref: { promptId: number } | { integrationId: number }) {
  if ("promptId" in ref) {
    const id = ref.promptId;
    await tx
      .update(queues)
      .set({ promptId: null })
      .where(and(eq(queues.companyId, companyId), eq(queues.promptId, id)));
    await tx
      .update(queueOptions)
      .set({ promptId: null })
      .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.promptId, id)));
    await tx
      .update(whatsapps)
      .set({ promptId: null })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.promptId, id)));
    await tx
      .update(tickets)
      .set({ promptId: null, useIntegration: false })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.promptId, id)));
    return;
  }
  const id = ref.integrationId;
  await tx
    .update(queues)
    .set({ integrationId: null })
    .where(and(eq(queues.companyId, companyId), eq(queues.integrationId, id)));
  await tx
    .update(queueOptions)
    .set({ qIntegrationId: null })
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.qIntegrationId, id)));
  await tx
    .update(whatsapps)
    .set({ integrationId: null })
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.integrationId, id)));
  await tx
    .update(tickets)
    .set({ integrationId: null, useIntegration: false })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.integrationId, id)));
}

/** A deleted area is no prompt's hand-over target any more (the prompt then hands over within the ticket's area). */
export async function clearPromptQueue(tx: Tx, companyId: number, queueId: number) {
  await tx
    .update(prompts)
    .set({ queueId: null })
    .where(and(eq(prompts.companyId, companyId), eq(prompts.queueId, queueId)));
}
