import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import type { Config } from "../config.js";
import type { prompts } from "../db/schema/index.js";
import { AppError } from "../lib/app-error.js";
import { checkOutboundUrl } from "../lib/outbound-url.js";
import type { SecretBox } from "../lib/secret-box.js";

type PromptRow = typeof prompts.$inferSelect;

/** An OpenAI-compatible endpoint as a call uses it: the base URL and the key (both already decided). */
export type AiEndpoint = { baseUrl: string; apiKey: string; custom: boolean };

type AiConfig = Pick<Config, "openaiBaseUrl" | "openaiApiKey" | "aiTimeoutMs" | "integrationsAllowPrivate">;

/** The most models a listing answers (a provider with thousands of fine-tunes stays bounded). */
const MAX_MODELS = 500;

const OPENAI_HOST = /(^|\.)openai\.com$/i;

/**
 * The endpoint a prompt (or a typed probe) calls: its own base URL, else the install's (OPENAI_BASE_URL);
 * its own key, else the install's OPENAI_API_KEY, but only towards the install's own endpoint: the
 * operator's key never goes to a URL a company typed.
 */
export function endpointOf(config: AiConfig, given: { baseUrl: string; apiKey: string }): AiEndpoint {
  const custom = given.baseUrl.trim() !== "";
  const baseUrl = (custom ? given.baseUrl.trim() : config.openaiBaseUrl).replace(/\/+$/, "");
  const apiKey = given.apiKey || (custom ? "" : config.openaiApiKey);
  return { baseUrl, apiKey, custom };
}

/** A stored prompt's endpoint, its key opened. */
export function promptEndpoint(config: AiConfig, secrets: SecretBox, prompt: Pick<PromptRow, "baseUrl" | "apiKeySealed">) {
  return endpointOf(config, { baseUrl: prompt.baseUrl, apiKey: secrets.open(prompt.apiKeySealed) });
}

/**
 * The official client for an endpoint, after the checks every call makes: a company's URL must be a
 * public http(s) one (lib/outbound-url.ts, unless private addresses are allowed), and OpenAI's own
 * endpoint needs a key (ERR_AI_NOT_CONFIGURED). Endpoints without keys (a local model server) get a
 * placeholder, which they ignore. No retries: the time-out bounds the whole call.
 */
export async function aiClient(config: AiConfig, endpoint: AiEndpoint): Promise<OpenAI> {
  let host: string;
  try {
    host = new URL(endpoint.baseUrl).hostname;
  } catch {
    throw new AppError("ERR_URL_NOT_ALLOWED");
  }
  if (endpoint.custom) await checkOutboundUrl(config, endpoint.baseUrl);
  if (!endpoint.apiKey && OPENAI_HOST.test(host)) throw new AppError("ERR_AI_NOT_CONFIGURED");
  return new OpenAI({
    apiKey: endpoint.apiKey || "no-key",
    baseURL: endpoint.baseUrl,
    timeout: config.aiTimeoutMs,
    maxRetries: 0,
    organization: null,
    project: null,
  });
}

/**
 * Why a provider call failed, short and safe to show or store: its status and message, never the key
 * (providers echo a wrong key back, partly masked: any key-looking token is blanked).
 */
export function providerReason(err: unknown, apiKey = ""): string {
  let reason: string;
  if (err instanceof APIConnectionTimeoutError) reason = "time-out";
  else if (err instanceof APIError && err.status) {
    const detail = (err.error as { message?: unknown } | undefined)?.message;
    reason = `HTTP ${err.status}${typeof detail === "string" && detail ? ` ${detail}` : ""}`;
  } else if (err instanceof APIError) reason = causeOf(err) ?? "connection failed";
  else reason = err instanceof Error ? err.message : String(err);
  if (apiKey) reason = reason.split(apiKey).join("***");
  reason = reason
    .replace(/\b(sk|pk|key)[-_][A-Za-z0-9_*.-]{6,}/gi, "***")
    .replace(/\s+/g, " ")
    .trim();
  return reason.length > 200 ? `${reason.slice(0, 197)}...` : reason || "unknown error";
}

function causeOf(err: Error): string | null {
  const cause = (err as { cause?: { code?: unknown; message?: unknown; cause?: { code?: unknown } } }).cause;
  const code = cause?.code ?? cause?.cause?.code;
  if (typeof code === "string") return `connection failed (${code})`;
  return null;
}

/** An endpoint's failure as the API answers it: 502 with the reason (or the refusal itself when it is one of ours). */
export function asProviderError(err: unknown, apiKey: string): AppError {
  if (err instanceof AppError) return err;
  return new AppError("ERR_AI_PROVIDER", { data: { reason: providerReason(err, apiKey) } });
}

/** GET / POST /ia/models: the endpoint's model ids, sorted, as secondary §7 answers them (`models[].model`). */
export async function listModels(config: AiConfig, endpoint: AiEndpoint): Promise<{ model: string }[]> {
  const client = await aiClient(config, endpoint);
  try {
    const page = await client.models.list();
    const ids = page.data
      .map((m) => (typeof m.id === "string" ? m.id : ""))
      .filter((id) => id !== "")
      .slice(0, MAX_MODELS);
    return [...new Set(ids)].sort((a, b) => a.localeCompare(b)).map((model) => ({ model }));
  } catch (err) {
    throw asProviderError(err, endpoint.apiKey);
  }
}
