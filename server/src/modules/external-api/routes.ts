import {
  ExternalApi,
  ApiErrors,
  ExternalSendResponse,
  ExternalSendText,
  ListGroupsResponse,
  SharedContactBody,
  SharedContactResponse,
  TicketMessagesQuery,
  TicketMessagesResponse,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Services } from "../../context.js";
import { apiTokenHook, callerOf } from "./auth.js";
import { listGroups, readSendRequest, sendExternal, shareContact, ticketMessages } from "./service.js";

const errors = ApiErrors;
const IdempotencyHeaders = z.object({
  "idempotency-key": z.string().trim().min(1).max(ExternalApi.idempotencyKeyMax, "validation.tooLong").optional(),
});

/** The multipart form of POST /api/messages/send, as documented (the handler reads it as a stream). */
export const SEND_MULTIPART = {
  type: "object",
  required: ["number", "medias"],
  properties: {
    number: { type: "string", description: "Country code, area code and number, digits only (or a group's id)." },
    body: { type: "string", description: "Caption of the first file." },
    closeTicket: { type: "string", enum: ["true", "false"] },
    medias: { type: "array", items: { type: "string", contentEncoding: "binary" }, minItems: 1, maxItems: 10 },
  },
} as const;

/**
 * The external API (secondary §7; behaviours: External API), at the app's root as the spec writes it
 * (`{host}/api/messages/send`), authenticated by a connection's API token, not a user's login.
 */
export async function externalApiRoutes(app: FastifyInstance, s: Services) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = apiTokenHook(app, s);
  const config = { public: true, apiToken: true } as const;
  const doc = { tags: ["External API"], security: [{ bearerAuth: [] }] };

  r.post(
    "/api/messages/send",
    {
      schema: {
        ...doc,
        summary: "Send a text or media message",
        description:
          "JSON `{number, body, closeTicket?}` sends a text; multipart/form-data with `number`, `medias` (1 to 10 files) and an optional `body` sends files. " +
          "The contact and its ticket on the token's connection are found or created. With an `Idempotency-Key` header a retry answers the first answer without sending again.",
        headers: IdempotencyHeaders,
        body: { content: { "application/json": { schema: ExternalSendText } } },
        "x-multipart": SEND_MULTIPART,
        response: { 200: ExternalSendResponse.describe("Sent: the ticket the message went to."), ...errors },
      },
      config,
      onRequest,
    },
    async (req) => {
      const caller = callerOf(req);
      const input = await readSendRequest(s, caller, req);
      return sendExternal(s, caller, input, req.headers["idempotency-key"] ?? null);
    },
  );

  r.post(
    "/api/shared-contact",
    {
      schema: {
        ...doc,
        summary: "Add or update a contact",
        description: "Saves the contact in the token's company; `company_id`, when given, must be that company.",
        body: SharedContactBody,
        response: { 200: SharedContactResponse.describe("The contact as saved."), ...errors },
      },
      config,
      onRequest,
    },
    (req) => shareContact(s, callerOf(req), req.body),
  );

  r.get(
    "/api/ticket-messages",
    {
      schema: {
        ...doc,
        summary: "A ticket's messages, 20 a page",
        description: "A ticket of the token's connection by numeric id or uuid; page 1 holds the newest 20, oldest first.",
        querystring: TicketMessagesQuery,
        response: { 200: TicketMessagesResponse.describe("One page of the ticket's messages."), ...errors },
      },
      config,
      onRequest,
    },
    (req) => ticketMessages(s, callerOf(req), req.query),
  );

  r.get(
    "/api/list-groups",
    {
      schema: {
        ...doc,
        summary: "The connection's groups",
        response: { 200: ListGroupsResponse.describe("The connection's groups."), ...errors },
      },
      config,
      onRequest,
    },
    (req) => listGroups(s, callerOf(req)),
  );
}
