import { z } from "zod";
import { IdSchema, looseText, text, V } from "./common.js";
import { Limits } from "./limits.js";

/** secondary §9: 20 messages a page; the page's test calls give up after 10 s. */
export const ExternalApi = { pageSize: 20, testTimeoutMs: 10_000, idempotencyKeyMax: 200 } as const;

/** The digits of a WhatsApp number (country code, area code, number; no mask), or a group's id. */
const Number_ = text({ error: V.required })
  .trim()
  .min(1, V.required)
  .max(64, V.tooLong)
  .transform((v) => v.replace(/[\s()+-]/g, ""))
  .refine((v) => /^\d{8,15}$/.test(v) || /^\d{10,30}(@g\.us)?$/.test(v), V.invalidPhone);

/**
 * POST /api/messages/send, JSON: number and body (secondary §7). `closeTicket` (behaviours: optionally
 * closes the ticket) takes the loose values clients send.
 */
export const ExternalSendText = z.object({
  number: Number_,
  body: text({ error: V.required }).trim().min(1, V.required).max(Limits.messageBody.max, V.tooLong),
  closeTicket: z.preprocess((v) => v === true || v === 1 || v === "1" || v === "true", z.boolean()).optional(),
});
export type ExternalSendText = z.input<typeof ExternalSendText>;
/** The multipart form's fields beside its `medias` files. */
export const ExternalSendMediaFields = z.object({
  number: Number_,
  body: looseText(text().max(Limits.messageBody.max, V.tooLong)),
});

/** The documented answer (secondary §7): `mensagem` and `ticket_uuid`. */
export const ExternalSendResponse = z.object({ mensagem: z.string(), ticket_uuid: z.string() });
export type ExternalSendResponse = z.infer<typeof ExternalSendResponse>;

/** POST /api/shared-contact: name, number, company_id (must be the token's own), email. */
export const SharedContactBody = z.object({
  name: text({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(Limits.name.max * 4, V.tooLong),
  number: Number_,
  company_id: z.union([IdSchema, z.literal(""), z.null()]).optional(),
  email: looseText(text().trim().max(254, V.tooLong).email(V.invalidEmail)),
});
export const SharedContactResponse = z.object({
  mensagem: z.string(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string(), email: z.string() }),
});

/** GET /api/ticket-messages: a ticket (numeric id or uuid) of the token's connection, 20 a page. */
export const TicketMessagesQuery = z.object({
  ticketId: z.union([IdSchema, z.string().uuid(V.invalid)]),
  pageNumber: z.coerce
    .number({ error: V.invalid })
    .int(V.invalid)
    .min(1, V.invalid)
    .max(100_000, V.invalid)
    .optional()
    .default(1),
});
export const ExternalMessage = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.string(),
  mediaUrl: z.string().nullable(),
  ack: z.number(),
  read: z.boolean(),
  createdAt: z.string(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }).nullable(),
});
export const TicketMessagesResponse = z.object({
  messages: z.array(ExternalMessage),
  count: z.number(),
  hasMore: z.boolean(),
  ticket: z.object({ id: z.number(), uuid: z.string(), status: z.string() }),
});

/** GET /api/list-groups: the connection's groups. */
export const ListGroupsResponse = z.object({
  mensagem: z.string(),
  groups: z.array(z.object({ id: z.string(), name: z.string(), participants: z.number() })),
});

/** Every external error: the catalogue's body. */
export const ExternalError = z.object({ error: z.string(), message: z.string() });
/** Every error of the API, as the error handler writes it (validation issues and data when there are some). */
export const ApiErrorBody = ExternalError.extend({
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
}).describe("A catalogue error: `error` is its code, `message` its text (es); validation errors list their `issues`.");
/** The error answers of a documented route. */
export const ApiErrors = { "4xx": ApiErrorBody, "5xx": ApiErrorBody } as const;

/** GET/POST /whatsapp/{id}/api-token: the connection's external API token (admins). */
export const ApiTokenView = z
  .object({ apiToken: z.string().describe("Send it as `Authorization: Bearer <apiToken>`.") })
  .describe("The connection's external API token.");
export type ApiTokenView = z.infer<typeof ApiTokenView>;
