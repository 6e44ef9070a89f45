import type { InvoiceView } from "@charla/contracts";
import type { invoices } from "../../db/schema/index.js";

export type InvoiceRow = typeof invoices.$inferSelect;

/** secondary §3 Invoice; `value` is PostgreSQL's own text of the numeric ("199.90"), never a float. */
export function presentInvoice(row: InvoiceRow, companyName: string): InvoiceView {
  return {
    id: row.id,
    companyId: row.companyId,
    companyName,
    detail: row.detail,
    value: row.value,
    dueDate: row.dueDate,
    status: row.status,
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
