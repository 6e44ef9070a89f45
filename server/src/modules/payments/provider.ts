import { randomBytes } from "node:crypto";
import type { Config } from "../../config.js";
import { pixPayload } from "./pix-emv.js";

/** What a charge is for: always an invoice's own value, as stored (an exact decimal). */
export type ChargeRequest = { invoiceId: number; txid: string; amount: string };

/** What the payer is shown: the copy-and-paste payload (also drawn as the QR image) and the amount. */
export type Charge = { txid: string; payload: string; amount: string };

/**
 * An instant-payment provider: it makes the payload a payer's bank reads, under a transaction id the
 * provider's confirmation names again (POST /subscription/webhook, signed with PAYMENT_WEBHOOK_SECRET).
 * One built-in: `pix`, a static BR Code for the operator's own Pix key; a provider with an API of its
 * own (a PSP's dynamic charges) implements the same two calls.
 */
export interface PaymentProvider {
  readonly name: string;
  /** A new transaction id for an invoice's first charge; later charges of that invoice reuse it. */
  newTxid(invoiceId: number): string;
  charge(request: ChargeRequest): Promise<Charge>;
}

const ALPHANUMERIC = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** `CH<invoice id>X<random>`: letters and digits only, at most 25 (EMV field 62-05), unguessable. */
export function pixTxid(invoiceId: number): string {
  const head = `CH${invoiceId}X`;
  const bytes = randomBytes(25 - head.length);
  let tail = "";
  for (const b of bytes) tail += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return head + tail;
}

/** The built-in Pix provider: the payload names the invoice's amount and txid, for the configured key. */
export function pixProvider(config: Pick<Config, "pixKey" | "pixMerchantName" | "pixMerchantCity">): PaymentProvider {
  return {
    name: "pix",
    newTxid: pixTxid,
    async charge({ txid, amount }) {
      const payload = pixPayload({
        key: config.pixKey,
        merchantName: config.pixMerchantName,
        merchantCity: config.pixMerchantCity,
        amount,
        txid,
        // one invoice, one payment: a bank app may refuse to pay the same code twice
        pointOfInitiation: "12",
      });
      return { txid, payload, amount };
    },
  };
}

/** The configured provider, or null when the server has none (checkout then answers 503). */
export function paymentProvider(config: Config): PaymentProvider | null {
  if (!config.pixKey || !config.pixMerchantName || !config.pixMerchantCity) return null;
  return pixProvider(config);
}
