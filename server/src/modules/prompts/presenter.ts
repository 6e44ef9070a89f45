import type { PromptView } from "@charla/contracts";
import type { prompts, queues } from "../../db/schema/index.js";
import { type SecretBox, maskSecret } from "../../lib/secret-box.js";

export type PromptRow = typeof prompts.$inferSelect;
export type PromptQueue = Pick<typeof queues.$inferSelect, "id" | "name" | "color">;

/** What is shown of a stored key: its masked tail; a key sealed under another install key shows as masked only. */
function maskedKey(secrets: SecretBox, sealed: string): string {
  if (sealed === "") return "";
  try {
    return maskSecret(secrets.open(sealed));
  } catch {
    return "•".repeat(8);
  }
}

/** secondary §3 Prompt, as answered: the key never in full (its masked tail, and whether there is one). */
export function presentPrompt(secrets: SecretBox, row: PromptRow, queue: PromptQueue | null): PromptView {
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    voice: row.voice,
    voiceKey: row.voiceKey,
    voiceRegion: row.voiceRegion,
    model: row.model,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    apiKey: maskedKey(secrets, row.apiKeySealed),
    hasApiKey: row.apiKeySealed !== "",
    baseUrl: row.baseUrl,
    queueId: row.queueId,
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    maxMessages: row.maxMessages,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
