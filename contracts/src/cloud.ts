import { z } from "zod";
import { V, looseText, looseTextOr, text } from "./common.js";

/**
 * The official WhatsApp Cloud API as a connection's channel (provider "cloud", issue 31). Meta's
 * names: the phone-number id and the WhatsApp Business Account (WABA) id address the Graph API; the
 * access token authorises it; the app secret signs the webhook's POSTs (X-Hub-Signature-256); the
 * verify token answers Meta's webhook verification (GET hub.verify_token).
 */
export const CloudLimits = {
  id: 40,
  secret: 1024,
  templateName: 512,
  templateLanguage: 15,
  templateParams: 20,
  templateParam: 1024,
  /** Meta's customer-service window: free text only this long after the customer's last message. */
  windowMs: 24 * 3_600_000,
  /** Meta's limits on what it carries: a text message's body, and a media message's caption. */
  textMax: 4096,
  captionMax: 1024,
  /** Templates are listed from the API at most this often unless refreshed. */
  templatesCacheMs: 15 * 60_000,
} as const;

const graphId = text().trim().max(CloudLimits.id, V.tooLong).regex(/^\d*$/, V.invalid);
const secret = looseText(text().trim().max(CloudLimits.secret, V.tooLong));

/**
 * The connection form's Cloud API fields (with provider "cloud"). A secret left blank on an edit keeps
 * the stored one; on a new connection the three are required (checked by the server, which knows).
 * `templateName`/`templateLanguage`/`templateParams`: the approved template automatic messages are sent
 * as once the window is closed; each parameter may use the automatic messages' `{{variables}}`.
 */
export const CloudFields = z.object({
  phoneNumberId: looseTextOr(graphId, ""),
  businessAccountId: looseTextOr(graphId, ""),
  accessToken: secret,
  appSecret: secret,
  verifyToken: secret,
  templateName: looseTextOr(text().trim().max(CloudLimits.templateName, V.tooLong), ""),
  templateLanguage: looseTextOr(text().trim().max(CloudLimits.templateLanguage, V.tooLong), ""),
  templateParams: z
    .array(text().max(CloudLimits.templateParam, V.tooLong))
    .max(CloudLimits.templateParams, V.tooLong)
    .optional()
    .default([]),
});
export type CloudFields = z.input<typeof CloudFields>;

/** What a Cloud API connection shows of its settings: secrets masked (their tail), never in full. */
export type CloudConnectionView = {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  hasAccessToken: boolean;
  hasAppSecret: boolean;
  hasVerifyToken: boolean;
  /** Absolute: the callback URL to paste in Meta's app (WhatsApp → Configuration → Webhook). */
  webhookUrl: string;
  templateName: string;
  templateLanguage: string;
  templateParams: string[];
};

/** One approved (or pending, rejected) message template of the business account, as listed by the API. */
export type CloudTemplate = {
  name: string;
  language: string;
  status: string;
  category: string;
  /** The BODY component's text, `{{1}}`…`{{n}}` where the parameters go. */
  body: string;
  /** How many body parameters it takes. */
  params: number;
  /** HEADER and FOOTER texts, when they are text. */
  header: string;
  footer: string;
  /**
   * False when it needs more than body variables to be sent (a header with a file or variables, a
   * button with a variable URL): Charla sends body variables only, so it is listed but not offered.
   */
  sendable: boolean;
};
/** GET /whatsapp/{id}/templates (`?refresh=1` asks the API again). */
export type CloudTemplatesList = { templates: CloudTemplate[]; fetchedAt: string };

/** POST /messages/{ticketId}/template: an approved template with its body parameters, in order. */
export const TemplateSendForm = z.object({
  name: text({ error: V.required }).trim().min(1, V.required).max(CloudLimits.templateName, V.tooLong),
  language: text({ error: V.required }).trim().min(1, V.required).max(CloudLimits.templateLanguage, V.tooLong),
  params: z
    .array(text().trim().min(1, V.required).max(CloudLimits.templateParam, V.tooLong))
    .max(CloudLimits.templateParams, V.tooLong)
    .optional()
    .default([]),
});
export type TemplateSendForm = z.input<typeof TemplateSendForm>;

/**
 * GET /tickets/{id}/window: Meta's customer-service window of the ticket's contact on its connection.
 * `applies` false: the channel has no window (WhatsApp Web, the simulator). Open until `closesAt`
 * (24 h after the customer's last message); closed, or never opened (`closesAt` null), only templates go.
 */
export type ChatWindow = { applies: boolean; open: boolean; closesAt: string | null };
