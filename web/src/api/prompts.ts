import type { ModelsList, ModelsProbe, PromptForm, PromptView } from "@charla/contracts";
import { useMutation } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { PromptView };

/** secondary §7 AI prompts: 20 a page by name, searched by name; `company-{id}-prompt` keeps it live. */
export const promptCollection = defineCollection<PromptView, PromptForm>({
  name: "prompts",
  path: "/prompt",
  pageField: "prompts",
  matches: (p, search) => p.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id,
  live: { channel: "prompt", item: "prompt", idField: "promptId" },
});

/**
 * POST /ia/models: the models the typed key and URL reach (blank key on an edited prompt: its stored
 * key, towards its stored URL only), as `models[].model`.
 */
export function useModelList() {
  return useMutation({
    mutationFn: (probe: ModelsProbe) => api<ModelsList>("/ia/models", { method: "POST", body: probe }),
  });
}
