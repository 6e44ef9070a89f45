/** Who answers an area's customers, as the server decides it (server/src/automation/resolve.ts, README "Which prompt answers"). */
export type AreaAnswer = { kind: "prompt"; name: string; bound: boolean } | { kind: "typebot"; name: string } | { kind: "none" };

type PromptChoice = { id: number; name: string; queueId: number | null };
type IntegrationChoice = { id: number; name: string; type: string };

/**
 * The area's own prompt, else its typebot (a webhook or n8n integration only receives deliveries),
 * else a prompt saved with the area (the oldest, lowest id, when several are). `areaId` null: an area
 * not saved yet, which no prompt names.
 */
export function areaAnswer(
  area: { id: number | null; promptId: number | null | undefined; integrationId: number | null | undefined },
  prompts: readonly PromptChoice[],
  integrations: readonly IntegrationChoice[],
): AreaAnswer {
  const own = prompts.find((p) => p.id === area.promptId);
  if (own) return { kind: "prompt", name: own.name, bound: false };
  const typebot = integrations.find((i) => i.id === area.integrationId && i.type === "typebot");
  if (typebot) return { kind: "typebot", name: typebot.name };
  const bound = prompts.filter((p) => area.id !== null && p.queueId === area.id).sort((a, b) => a.id - b.id)[0];
  if (bound) return { kind: "prompt", name: bound.name, bound: true };
  return { kind: "none" };
}
