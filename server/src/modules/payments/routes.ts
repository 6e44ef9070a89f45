import type { FastifyInstance, FastifyRequest } from "fastify";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { Services } from "../../context.js";
import { AppError } from "../../lib/app-error.js";
import { confirmPayment } from "./confirm-service.js";

/** A confirmation is a few hundred bytes; anything near this is not one. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

const Envelope = z.object({ type: z.string().max(100) });
const Confirmed = z.object({
  type: z.literal("payment.confirmed"),
  data: z.object({
    // a Pix txid: 25 characters in a static code, up to 35 in a PSP's dynamic one
    txid: z.string().regex(/^[A-Za-z0-9]{1,35}$/),
    // an exact decimal; a JSON number is read as the text it was written with
    amount: z
      .union([z.string(), z.number()])
      .transform(String)
      .pipe(z.string().regex(/^\d{1,12}(\.\d{1,2})?$/)),
    paidAt: z.iso.datetime({ offset: true }).optional(),
  }),
});

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === "string" ? v.slice(0, 256) : "";
};

/** The secret's verifier, or null when it is missing or not a `whsec_<base64>` secret. */
function verifierOf(s: Services, req: FastifyRequest): Webhook | null {
  if (!s.config.paymentWebhookSecret) return null;
  try {
    return new Webhook(s.config.paymentWebhookSecret);
  } catch {
    req.log.error("payment webhook: PAYMENT_WEBHOOK_SECRET is not a whsec_<base64> secret");
    return null;
  }
}

/**
 * POST /subscription/webhook: the payment provider's confirmations (behaviours: Subscriptions and
 * invoices), public and rate-limited per address like every API route. Authenticated by the Standard
 * Webhooks scheme: `webhook-signature` is `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`
 * under PAYMENT_WEBHOOK_SECRET, over the body's raw bytes (this route's own parser keeps them), and the
 * timestamp must be within 5 minutes. A forged, unsigned or stale call is 401 ERR_WEBHOOK_SIGNATURE,
 * logged (never the secret). An authenticated one is acknowledged with 200 whatever it found (an
 * unknown txid, an amount short), so the provider stops retrying; a replay of an event id changes nothing.
 */
export async function paymentsRoutes(app: FastifyInstance) {
  const s = app.charla;
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    // JSON only, kept as the bytes that were signed; any other type is refused (415) before it is read
    raw.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    raw.post("/subscription/webhook", { config: { public: true }, bodyLimit: WEBHOOK_BODY_LIMIT }, async (req) => {
      const verifier = verifierOf(s, req);
      if (!verifier) throw new AppError("ERR_WEBHOOK_NOT_CONFIGURED");
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const headers = {
        "webhook-id": header(req, "webhook-id"),
        "webhook-timestamp": header(req, "webhook-timestamp"),
        "webhook-signature": header(req, "webhook-signature"),
      };
      let text: string;
      try {
        // the signed text is the bytes as sent: a body that is no UTF-8 was not signed as text either
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        verifier.verify(text, headers, { jsonParse: false });
      } catch (err) {
        req.log.warn(
          { webhookId: headers["webhook-id"].slice(0, 100), reason: (err as Error).message, ip: req.ip },
          "payment webhook refused: no valid signature",
        );
        throw new AppError("ERR_WEBHOOK_SIGNATURE");
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new AppError("ERR_BAD_REQUEST");
      }
      const envelope = Envelope.safeParse(json);
      if (!envelope.success) throw new AppError("ERR_VALIDATION");
      if (envelope.data.type !== "payment.confirmed") return { received: true, ignored: true };
      const parsed = Confirmed.safeParse(json);
      if (!parsed.success) {
        req.log.warn(
          { webhookId: headers["webhook-id"].slice(0, 100) },
          "payment webhook: a confirmation without txid or amount",
        );
        throw new AppError("ERR_VALIDATION", {
          issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
        });
      }
      const { txid, amount, paidAt } = parsed.data.data;
      const result = await confirmPayment(
        s,
        { eventId: headers["webhook-id"], txid, amount, paidAt: paidAt ? new Date(paidAt) : new Date() },
        { type: parsed.data.type, data: { txid, amount, paidAt: paidAt ?? null } },
      );
      if (result.duplicate) return { received: true, duplicate: true };
      if (result.outcome !== "paid") {
        req.log.warn(
          { webhookId: headers["webhook-id"].slice(0, 100), txid, amount, outcome: result.outcome, invoiceId: result.invoiceId },
          "payment webhook: confirmation recorded, nothing paid",
        );
      }
      return { received: true, outcome: result.outcome };
    });
  });
}
