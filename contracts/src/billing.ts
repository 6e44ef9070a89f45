import { z } from "zod";
import { IdSchema, V, looseBool, looseTextOr, text } from "./common.js";
import type { Recurrences } from "./companies.js";

/** Months each recurrence moves a due date (secondary §4 +Vencimiento; a payment does the same). */
export const RecurrenceMonths: Record<(typeof Recurrences)[number], number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * `YYYY-MM-DD` moved by whole months; a day the target month lacks becomes its last day
 * (2027-01-31 + 1 month = 2027-02-28, 2028-02-29 + 12 months = 2029-02-28). Calendar arithmetic only:
 * no time zone can shift it.
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(Math.min(d, last))}`;
}

export const addRecurrence = (date: string, recurrence: (typeof Recurrences)[number]): string =>
  addMonths(date, RecurrenceMonths[recurrence] ?? 1);

/** Whole days from `from` to `to` (both `YYYY-MM-DD`): positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  const at = (s: string) => {
    const [y, m, d] = s.split("-").map(Number);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((at(to) - at(from)) / 86_400_000);
}

/** Today's date (`YYYY-MM-DD`) in a time zone: due dates are days of the company's own calendar. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

export type DueDateTone = "yellow" | "orange" | "red" | null;

/**
 * The Empresas table's row colour (secondary §4): exactly 5 days ahead yellow; from 3 days overdue up
 * to 4 days ahead orange; exactly 4 days overdue red; otherwise none.
 */
export function dueDateTone(dueDate: string | null, today: string): DueDateTone {
  if (!dueDate) return null;
  const ahead = daysBetween(today, dueDate);
  if (ahead === 5) return "yellow";
  if (ahead >= -3 && ahead <= 4) return "orange";
  if (ahead === -4) return "red";
  return null;
}

export type InvoiceView = {
  id: number;
  companyId: number;
  /** Shown to super users, who list every company's invoices. */
  companyName: string;
  detail: string;
  /** Exact decimal as text ("199.90"): never a floating-point number. */
  value: string;
  dueDate: string;
  status: "open" | "paid";
  paidAt: string | null;
  createdAt: string;
};

export type InvoiceDisplayStatus = "paid" | "overdue" | "open";

/** secondary §4 Invoice display status: Pago; Vencido when the due date is before today; else Abierto. */
export function invoiceDisplayStatus(invoice: Pick<InvoiceView, "status" | "dueDate">, today: string): InvoiceDisplayStatus {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate < today ? "overdue" : "open";
}

export const InvoicesPage = 20;

/** Checkout countries (secondary §5). */
export const CheckoutCountries = ["BR", "usa"] as const;

/** The checkout's billing step (secondary §5): its required fields say these words. */
export const CheckoutMessages = {
  fullName: "validation.checkoutFullName",
  address: "validation.checkoutAddress",
  city: "validation.checkoutCity",
  zipcode: "validation.checkoutZipcode",
  country: "validation.checkoutCountry",
} as const;

const required = (message: string, max = 200) => text({ error: message }).trim().min(1, message).max(max, V.tooLong);
const optional = (max = 200) => looseTextOr(text().trim().max(max, V.tooLong), "");

/**
 * POST /subscription (secondary §7 Billing): the checkout's fields. The card fields exist and are not
 * used; `price`, `plan`, `users` and `connections` are what the client shows, and the server ignores
 * them: the charge is always the invoice's own value.
 */
export const SubscriptionForm = z.object({
  invoiceId: IdSchema,
  firstName: required(CheckoutMessages.fullName),
  lastName: optional(),
  address2: required(CheckoutMessages.address),
  city: required(CheckoutMessages.city, 100),
  state: optional(100),
  zipcode: required(CheckoutMessages.zipcode, 20),
  country: z.enum(CheckoutCountries, { error: CheckoutMessages.country }),
  useAddressForPaymentDetails: looseBool(),
  nameOnCard: optional(),
  cardNumber: optional(40),
  cvv: optional(10),
  plan: z.unknown().optional(),
  price: z.unknown().optional(),
  users: z.unknown().optional(),
  connections: z.unknown().optional(),
});
export type SubscriptionForm = z.input<typeof SubscriptionForm>;

/** The instant-payment response (secondary §3): the copy-and-paste payload and the amount charged. */
export type InstantPaymentView = {
  invoiceId: number;
  txid: string;
  qrcode: { qrcode: string };
  valor: { original: string };
};

/** `company-{id}-payment` (secondary §4 Checkout): the company's new due date once a payment is confirmed. */
export type PaymentEventPayload = {
  action: "CONCLUIDA";
  company: { id: number; dueDate: string };
  invoiceId: number;
};
