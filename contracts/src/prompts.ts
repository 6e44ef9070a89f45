import { z } from "zod";
import { IdSchema, looseIdOrNull, looseText, text, V } from "./common.js";
import { Limits } from "./limits.js";

/** secondary §9 Prompt defaults; temperature is shown, disabled (secondary §3). */
export const PromptDefaults = { voice: "texto", maxTokens: 500, temperature: 1, maxMessages: 10 } as const;
export const PromptLimits = {
  name: 100,
  prompt: 20_000,
  model: 200,
  maxTokens: 16_000,
  maxMessages: 50,
  apiKey: 500,
  url: 500,
} as const;

/** The voices a prompt answers with: text only (speech synthesis is not offered). */
export const PromptVoices = ["texto"] as const;

const count = (max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? fallback : v),
    z.coerce.number({ error: V.invalid }).int(V.invalid).min(1, V.invalid).max(max, V.tooLong),
  );

/** An OpenAI-compatible endpoint's base URL: "" for the configured default. */
export const EndpointUrl = looseText(
  text()
    .trim()
    .max(PromptLimits.url, V.tooLong)
    .refine((u) => u === "" || /^https?:\/\/[^\s/]+/i.test(u), V.invalid),
);

/**
 * POST /prompt and PUT /prompt/{id} (secondary §3, §5): the area is required on submit ('Informar al
 * sector', V.promptQueueRequired). `apiKey` left blank on an edit keeps the stored one.
 */
export const PromptForm = z.object({
  name: text({ error: V.required }).trim().min(1, V.required).max(PromptLimits.name, V.tooLong),
  prompt: text({ error: V.required }).trim().min(1, V.required).max(PromptLimits.prompt, V.tooLong),
  voice: z.enum(PromptVoices, { error: V.invalid }).optional().default("texto"),
  voiceKey: looseText(text().max(Limits.name.max, V.tooLong)),
  voiceRegion: looseText(text().max(Limits.name.max, V.tooLong)),
  model: text({ error: V.required }).trim().min(1, V.required).max(PromptLimits.model, V.tooLong),
  maxTokens: count(PromptLimits.maxTokens, PromptDefaults.maxTokens),
  /** Shown disabled; stored as given (0–2), 1 by default. */
  temperature: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? PromptDefaults.temperature : v),
    z.coerce.number({ error: V.invalid }).min(0, V.invalid).max(2, V.invalid),
  ),
  apiKey: looseText(text().trim().max(PromptLimits.apiKey, V.tooLong)),
  baseUrl: EndpointUrl,
  queueId: looseIdOrNull().refine((v) => v !== null, V.promptQueueRequired),
  maxMessages: count(PromptLimits.maxMessages, PromptDefaults.maxMessages),
});
export type PromptForm = z.input<typeof PromptForm>;

/** secondary §3 Prompt, as answered: the key never in full (`apiKey` is its masked tail). */
export const PromptView = z
  .object({
    id: z.number(),
    name: z.string(),
    prompt: z.string(),
    voice: z.string(),
    voiceKey: z.string(),
    voiceRegion: z.string(),
    model: z.string(),
    maxTokens: z.number(),
    temperature: z.number(),
    apiKey: z.string().describe("The key's masked tail, never the key."),
    hasApiKey: z.boolean(),
    baseUrl: z.string(),
    queueId: z.number().nullable(),
    queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
    maxMessages: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .describe("An AI prompt.");
export type PromptView = z.infer<typeof PromptView>;
export const PromptsPage = z.object({ prompts: z.array(PromptView), hasMore: z.boolean(), count: z.number() });
export type PromptsPage = z.infer<typeof PromptsPage>;

/** POST /ia/models: list what a key (typed, not yet saved) can use; GET /ia/models?promptId= uses a stored one. */
export const ModelsQuery = z.object({ promptId: IdSchema.optional() });
export const ModelsProbe = z.object({
  apiKey: looseText(text().trim().max(PromptLimits.apiKey, V.tooLong)),
  baseUrl: EndpointUrl,
  promptId: IdSchema.optional(),
});
export type ModelsProbe = z.input<typeof ModelsProbe>;
export const ModelsList = z
  .object({ models: z.array(z.object({ model: z.string() })) })
  .describe("The models the endpoint offers.");
export type ModelsList = z.infer<typeof ModelsList>;

/** `company-{id}-prompt` (secondary §7). */
export type PromptEvent = { action: "create" | "update"; prompt: PromptView } | { action: "delete"; promptId: number };
