import { date, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";

export const InvoiceStatuses = ["open", "paid"] as const;
export type InvoiceStatus = (typeof InvoiceStatuses)[number];

/**
 * A company's bill for one period (behaviours: Subscriptions and invoices): written by the invoice
 * sweep some days before the company's due date, once per due date; `value` is copied from the plan
 * then, an exact decimal. Paid by a confirmed instant payment whose `txid` it holds.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    detail: text("detail").notNull().default(""),
    value: numeric("value", { precision: 14, scale: 2 }).notNull(),
    /** The company's due date this invoice pays for (the one it moves on payment). */
    dueDate: date("due_date", { mode: "string" }).notNull(),
    status: text("status", { enum: InvoiceStatuses }).notNull().default("open"),
    /** The last charge's transaction id (EMV field 62-05): the confirmation names it. */
    txid: text("txid"),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("invoices_company_due_key").on(t.companyId, t.dueDate),
    uniqueIndex("invoices_txid_key").on(t.txid),
    index("invoices_company_idx").on(t.companyId, t.id),
  ],
);

/**
 * Every authenticated payment confirmation received, by the provider's event id: a replayed or retried
 * event finds its row and changes nothing. Written in the same transaction as its effects.
 */
export const paymentReceipts = pgTable(
  "payment_receipts",
  {
    id: serial("id").primaryKey(),
    eventId: text("event_id").notNull(),
    txid: text("txid").notNull(),
    invoiceId: integer("invoice_id"),
    companyId: integer("company_id"),
    body: jsonb("body").$type<unknown>().notNull(),
    /** What the receipt did: "paid", "already-paid", "unknown-txid", "amount-mismatch". */
    outcome: text("outcome").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_receipts_event_key").on(t.eventId), index("payment_receipts_txid_idx").on(t.txid)],
);
