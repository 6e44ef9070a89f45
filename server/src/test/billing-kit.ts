import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Webhook } from "standardwebhooks";
import type { Config } from "../config.js";
import { invoices } from "../db/schema/index.js";

/** A Standard Webhooks secret for tests: `whsec_` and the base64 of 32 bytes. */
export const WEBHOOK_SECRET = `whsec_${Buffer.from("charla-test-payment-webhook-key!").toString("base64")}`;

/** A server that can charge (the built-in Pix provider) and receive confirmations. */
export const BILLING_CONFIG: Partial<Config> = {
  pixKey: "pagos@charla.example",
  pixMerchantName: "Charla Serviços",
  pixMerchantCity: "São Paulo",
  paymentWebhookSecret: WEBHOOK_SECRET,
};

export async function buildInvoice(app: FastifyInstance, companyId: number, values: Partial<typeof invoices.$inferInsert> = {}) {
  const [row] = await app.charla.db
    .insert(invoices)
    .values({ companyId, detail: `Plan ${randomUUID().slice(0, 6)}`, value: "199.90", dueDate: "2031-05-31", ...values })
    .returning();
  return row;
}

export type Confirmation = { txid: string; amount: string | number; paidAt?: string };

/** The body a provider sends for a confirmed payment. */
export const confirmationBody = (c: Confirmation) => JSON.stringify({ type: "payment.confirmed", data: c });

/** Standard Webhooks headers for a body, as the provider signs them. */
export function signed(body: string, opts: { id?: string; at?: Date; secret?: string } = {}) {
  const id = opts.id ?? `msg_${randomUUID()}`;
  const at = opts.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(opts.secret ?? WEBHOOK_SECRET).sign(id, at, body),
    "content-type": "application/json",
  };
}

/** POST /subscription/webhook with the body and headers given. */
export function postWebhook(app: FastifyInstance, body: string | Buffer, headers: Record<string, string>) {
  return app.inject({ method: "POST", url: "/api/v1/subscription/webhook", payload: body, headers });
}

/** A signed confirmation, posted: what a provider does. */
export function confirm(app: FastifyInstance, c: Confirmation, opts: { id?: string; at?: Date } = {}) {
  const body = confirmationBody(c);
  return postWebhook(app, body, signed(body, opts));
}
