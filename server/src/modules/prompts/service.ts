import type { PromptEvent, PromptForm, PromptView } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { clearAutomationRefs } from "../../automation/references.js";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { queues, users } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { Publish } from "../../events/index.js";
import { found } from "../../lib/app-error.js";
import { checkOutboundUrl } from "../../lib/outbound-url.js";
import { presentPrompt } from "./presenter.js";

type Input = z.output<typeof PromptForm>;

/** `company-{id}-prompt` to the company's admins: the page and its keys' tails are theirs alone (secondary §6). */
async function adminsOf(q: Scoped): Promise<number[]> {
  const rows = await q.db
    .select({ id: users.id })
    .from(users)
    .where(q.users.where(eq(users.profile, "admin")));
  return rows.map((r) => r.id);
}

/** The prompt's change, told to the company's admins read through `q` (nobody when it has none). */
async function publishToAdmins(q: Scoped, publish: Publish, change: PromptEvent) {
  const audience = await adminsOf(q);
  if (audience.length) await publish({ type: "record.changed", companyId: q.companyId, audience, area: "prompt", change });
}

/** The area a prompt hands over to ("Informar al sector"): one of the company's own, else not found. */
async function areaOf(q: Scoped, queueId: number) {
  const [queue] = await q.db
    .select({ id: queues.id, name: queues.name, color: queues.color })
    .from(queues)
    .where(q.queues.where(eq(queues.id, queueId)));
  return found(queue, "ERR_NO_QUEUE_FOUND");
}

/** The stored columns of a form; `apiKey` blank on an edit keeps the stored key (`sealedKey` undefined). */
function fieldsOf(ctx: RequestCtx, input: Input) {
  return {
    name: input.name,
    prompt: input.prompt,
    voice: input.voice,
    voiceKey: input.voiceKey ?? "",
    voiceRegion: input.voiceRegion ?? "",
    model: input.model,
    maxTokens: input.maxTokens,
    temperature: input.temperature,
    baseUrl: input.baseUrl ?? "",
    queueId: input.queueId as number,
    maxMessages: input.maxMessages,
    ...(input.apiKey ? { apiKeySealed: ctx.secrets.seal(input.apiKey) } : {}),
  };
}

/** A company's endpoint URL is checked when saved (and again before each call: automation/ai-client.ts). */
async function checkEndpoint(ctx: RequestCtx, input: Input) {
  if (input.baseUrl) await checkOutboundUrl(ctx.config, input.baseUrl);
}

/** POST /prompt (secondary §5: the area is required, 'Informar al sector'). */
export async function createPrompt(ctx: RequestCtx, input: Input): Promise<PromptView> {
  await checkEndpoint(ctx, input);
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const queue = await areaOf(q, input.queueId as number);
    const row = await q.prompts.insert(fieldsOf(ctx, input));
    const view = presentPrompt(ctx.secrets, row, queue);
    await publishToAdmins(q, publish, { action: "create", prompt: view });
    return view;
  });
}

/** PUT /prompt/{id}: every field as given, the stored key kept when none is typed. */
export async function updatePrompt(ctx: RequestCtx, id: number, input: Input): Promise<PromptView> {
  await checkEndpoint(ctx, input);
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.prompts.lockById(id), "ERR_NO_PROMPT_FOUND");
    const queue = await areaOf(q, input.queueId as number);
    const row = found(await q.prompts.update(id, fieldsOf(ctx, input)), "ERR_NO_PROMPT_FOUND");
    const view = presentPrompt(ctx.secrets, row, queue);
    await publishToAdmins(q, publish, { action: "update", prompt: view });
    return view;
  });
}

/**
 * DELETE /prompt/{id}: the prompt, and in the same transaction whatever pointed at it (areas, options,
 * connections) no longer does, and tickets it was talking to go back to the usual flow.
 */
export async function deletePrompt(ctx: RequestCtx, id: number): Promise<{ message: string }> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.prompts.lockById(id), "ERR_NO_PROMPT_FOUND");
    await clearAutomationRefs(tx, ctx.companyId, { promptId: id });
    await q.prompts.delete(id);
    await publishToAdmins(q, publish, { action: "delete", promptId: id });
    return { message: "Prompt eliminado" };
  });
}
