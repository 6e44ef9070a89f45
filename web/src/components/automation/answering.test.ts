import { describe, expect, it } from "vitest";
import { areaAnswer } from "./answering";

const prompts = [
  { id: 7, name: "Nocturno", queueId: 3 },
  { id: 4, name: "Vendedor", queueId: 3 },
  { id: 9, name: "Soporte", queueId: 5 },
];
const integrations = [
  { id: 1, name: "Flujo", type: "typebot" },
  { id: 2, name: "Avisos", type: "webhook" },
];

describe("areaAnswer: the server's rule, as the area dialog tells it", () => {
  it("the area's own prompt first, then its typebot, then the oldest prompt saved with it", () => {
    expect(areaAnswer({ id: 3, promptId: 9, integrationId: 1 }, prompts, integrations)).toEqual({
      kind: "prompt",
      name: "Soporte",
      bound: false,
    });
    expect(areaAnswer({ id: 3, promptId: null, integrationId: 1 }, prompts, integrations)).toEqual({
      kind: "typebot",
      name: "Flujo",
    });
    expect(areaAnswer({ id: 3, promptId: null, integrationId: null }, prompts, integrations)).toEqual({
      kind: "prompt",
      name: "Vendedor",
      bound: true,
    });
  });

  it("a webhook does not talk, a prompt of another area does not count, a new area has none bound", () => {
    expect(areaAnswer({ id: 3, promptId: undefined, integrationId: 2 }, prompts, integrations)).toMatchObject({
      name: "Vendedor",
    });
    expect(areaAnswer({ id: 8, promptId: null, integrationId: 2 }, prompts, integrations)).toEqual({ kind: "none" });
    expect(areaAnswer({ id: null, promptId: null, integrationId: null }, prompts, integrations)).toEqual({ kind: "none" });
  });
});
