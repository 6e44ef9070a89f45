import {
  ApiErrors,
  IdParams,
  ModelsList,
  ModelsProbe,
  ModelsQuery,
  PageQuery,
  PromptForm,
  PromptView,
  PromptsPage,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { endpointOf, listModels, promptEndpoint } from "../../automation/ai-client.js";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { appRouteDoc } from "../../plugins/openapi.js";
import { findPromptView, pagePrompts } from "./queries.js";
import { createPrompt, deletePrompt, updatePrompt } from "./service.js";

/**
 * AI prompts (secondary §2, §7): the company's admins with the plan's useOpenAi (`prompts.manage`).
 * Keys go in sealed and come back masked; another company's prompt or area is not found.
 */
export async function promptsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: "prompts.manage" } as const;
  const doc = appRouteDoc("AI prompts");
  const one = { 200: PromptView, ...ApiErrors };
  const models = { 200: ModelsList, ...ApiErrors };

  r.get(
    "/prompt",
    { schema: { ...doc, querystring: PageQuery, response: { 200: PromptsPage, ...ApiErrors } }, config: manage },
    (req) => pagePrompts(scopedFor(req), req.ctx.secrets, req.query.searchParam, req.query.pageNumber),
  );

  r.get("/prompt/:id", { schema: { ...doc, params: IdParams, response: one }, config: manage }, async (req) =>
    found(await findPromptView(scopedFor(req), req.ctx.secrets, req.params.id), "ERR_NO_PROMPT_FOUND"),
  );

  r.post(
    "/prompt",
    { schema: { ...doc, body: PromptForm, response: { 201: PromptView, ...ApiErrors } }, config: manage },
    async (req, reply) => reply.status(201).send(await createPrompt(req.ctx, req.body)),
  );

  r.put("/prompt/:id", { schema: { ...doc, params: IdParams, body: PromptForm, response: one }, config: manage }, (req) =>
    updatePrompt(req.ctx, req.params.id, req.body),
  );

  r.delete(
    "/prompt/:id",
    { schema: { ...doc, params: IdParams, response: { 200: z.object({ message: z.string() }), ...ApiErrors } }, config: manage },
    (req) => deletePrompt(req.ctx, req.params.id),
  );

  /** The models of a stored prompt's endpoint (`?promptId=`), else of the install's (OPENAI_BASE_URL). */
  r.get("/ia/models", { schema: { ...doc, querystring: ModelsQuery, response: models }, config: manage }, async (req) => {
    const { config, secrets } = req.ctx;
    const id = req.query.promptId;
    const endpoint = id
      ? promptEndpoint(config, secrets, found(await scopedFor(req).prompts.findById(id), "ERR_NO_PROMPT_FOUND"))
      : endpointOf(config, { baseUrl: "", apiKey: "" });
    return { models: await listModels(config, endpoint) };
  });

  /**
   * The models a typed key and URL reach, before the prompt is saved. A blank key on an edited prompt
   * (`promptId`) uses its stored key, but only towards its stored URL: a typed URL never receives it.
   */
  r.post("/ia/models", { schema: { ...doc, body: ModelsProbe, response: models }, config: manage }, async (req) => {
    const { config, secrets } = req.ctx;
    const { promptId } = req.body;
    const baseUrl = req.body.baseUrl ?? "";
    let key = req.body.apiKey ?? "";
    if (!key && promptId) {
      const stored = found(await scopedFor(req).prompts.findById(promptId), "ERR_NO_PROMPT_FOUND");
      if (stored.baseUrl === baseUrl) key = secrets.open(stored.apiKeySealed);
    }
    return { models: await listModels(config, endpointOf(config, { baseUrl, apiKey: key })) };
  });
}
