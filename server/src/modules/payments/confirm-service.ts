import { addRecurrence, type Recurrences } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { companies, invoices, paymentReceipts } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";

/** One authenticated confirmation, as the webhook read it. */
export type Confirmation = {
  /** The provider's event id (`webhook-id`): the same event sent again is recognised by it. */
  eventId: string;
  txid: string;
  /** What was paid, an exact decimal ("199.90"). */
  amount: string;
  paidAt: Date;
};

/** What a receipt did; stored on it (payment_receipts.outcome). */
export type ConfirmationOutcome = "paid" | "already-paid" | "unknown-txid" | "amount-mismatch";

export type ConfirmationResult =
  | { duplicate: true }
  | {
      duplicate: false;
      outcome: ConfirmationOutcome;
      invoiceId: number | null;
      companyId: number | null;
      dueDate: string | null;
    };

/** "199.9" → 19990n: amounts compared as whole cents, never as floats. */
export function cents(decimal: string): bigint {
  const [whole, fraction = ""] = decimal.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

/**
 * A payment confirmation's effects, in one transaction (behaviours: Subscriptions and invoices):
 * the receipt is written first under its event id (a replay finds it taken and changes nothing);
 * then the invoice named by the txid is locked and, when open and paid in full, marked paid and its
 * company's due date moved by one recurrence from the invoice's due date (never back: the later of
 * that and the current one), which lets an expired company in again. Anything else (unknown txid, an
 * amount short, an invoice already paid by another event) is only recorded on the receipt. A crash
 * before the commit leaves nothing, so the provider's retry does it all; after it, the retry is a
 * replay. The company's users hear it once committed (payment.confirmed).
 */
export function confirmPayment(s: Services, c: Confirmation, body: unknown): Promise<ConfirmationResult> {
  return withTransaction(s, async (tx, { publish }) => {
    const [receipt] = await tx
      .insert(paymentReceipts)
      .values({ eventId: c.eventId, txid: c.txid, body, outcome: "received" })
      .onConflictDoNothing({ target: paymentReceipts.eventId })
      .returning({ id: paymentReceipts.id });
    if (!receipt) return { duplicate: true };

    const [invoice] = await tx.select().from(invoices).where(eq(invoices.txid, c.txid)).limit(1).for("update");
    let outcome: ConfirmationOutcome;
    let dueDate: string | null = null;
    if (!invoice) outcome = "unknown-txid";
    else if (invoice.status === "paid") outcome = "already-paid";
    else if (cents(c.amount) < cents(invoice.value)) outcome = "amount-mismatch";
    else {
      outcome = "paid";
      await tx
        .update(invoices)
        .set({ status: "paid", paidAt: c.paidAt, updatedAt: new Date() })
        .where(and(eq(invoices.id, invoice.id), eq(invoices.companyId, invoice.companyId)));
      const [company] = await tx
        .select({ recurrence: companies.recurrence })
        .from(companies)
        .where(eq(companies.id, invoice.companyId))
        .for("update");
      const next = addRecurrence(invoice.dueDate, company.recurrence as (typeof Recurrences)[number]);
      const [moved] = await tx
        .update(companies)
        .set({ dueDate: sql`greatest(${companies.dueDate}, ${next}::date)`, updatedAt: new Date() })
        .where(eq(companies.id, invoice.companyId))
        .returning({ dueDate: companies.dueDate });
      dueDate = moved.dueDate;
      await publish({
        type: "payment.confirmed",
        companyId: invoice.companyId,
        invoiceId: invoice.id,
        dueDate: moved.dueDate as string,
      });
    }
    await tx
      .update(paymentReceipts)
      .set({ outcome, invoiceId: invoice?.id ?? null, companyId: invoice?.companyId ?? null })
      .where(eq(paymentReceipts.id, receipt.id));
    return { duplicate: false, outcome, invoiceId: invoice?.id ?? null, companyId: invoice?.companyId ?? null, dueDate };
  });
}
