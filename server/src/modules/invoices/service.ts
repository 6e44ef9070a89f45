import type { InstantPaymentView, SubscriptionForm } from "@charla/contracts";
import { and, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { invoices } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { paymentProvider } from "../payments/provider.js";
import { findInvoice, type InvoiceScope } from "./queries.js";

type Input = z.output<typeof SubscriptionForm>;

/** A super user's invoices are every company's; anyone else's their own company's. */
export const scopeOf = (ctx: RequestCtx): InvoiceScope => ({ companyId: ctx.user.super ? null : ctx.companyId });

/**
 * POST /subscription (secondary §7 Billing; behaviours: Subscriptions and invoices): an instant-payment
 * charge for the invoice's own value. What the checkout sends besides the invoice id (plan, price,
 * users, connections, the card fields) is not read: the amount is the invoice's, as stored. An
 * invoice's first charge gets a transaction id, kept on the invoice; every later checkout of it (a
 * reload, a second tab, two at once) shows the same charge, which the confirmation will name.
 */
export async function checkout(ctx: RequestCtx, input: Input): Promise<InstantPaymentView> {
  const scope = scopeOf(ctx);
  let { invoice } = found(await findInvoice(ctx.db, scope, input.invoiceId), "ERR_INVOICE_NOT_FOUND");
  if (invoice.status === "paid") throw new AppError("ERR_INVOICE_PAID");
  const provider = paymentProvider(ctx.config);
  if (!provider) {
    ctx.log.error("checkout refused: no payment provider configured (PIX_KEY, PIX_MERCHANT_NAME, PIX_MERCHANT_CITY)");
    throw new AppError("ERR_PAYMENTS_NOT_CONFIGURED");
  }
  if (!invoice.txid) {
    // only the first checkout writes one; a concurrent one finds the row taken and reads its txid
    await ctx.db
      .update(invoices)
      .set({ txid: provider.newTxid(invoice.id), updatedAt: new Date() })
      .where(and(eq(invoices.id, invoice.id), eq(invoices.companyId, invoice.companyId), isNull(invoices.txid)));
    invoice = found(await findInvoice(ctx.db, scope, invoice.id), "ERR_INVOICE_NOT_FOUND").invoice;
    if (invoice.status === "paid") throw new AppError("ERR_INVOICE_PAID");
  }
  const txid = invoice.txid as string;
  let charge: Awaited<ReturnType<typeof provider.charge>>;
  try {
    charge = await provider.charge({ invoiceId: invoice.id, txid, amount: invoice.value });
  } catch (err) {
    ctx.log.error(
      { err: { message: (err as Error).message }, invoiceId: invoice.id },
      "checkout: the provider refused the charge",
    );
    throw new AppError("ERR_PAYMENTS_NOT_CONFIGURED");
  }
  return { invoiceId: invoice.id, txid: charge.txid, qrcode: { qrcode: charge.payload }, valor: { original: charge.amount } };
}
