import { type InvoiceView, InvoicesPage } from "@charla/contracts";
import { and, desc, eq, ilike, or } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { companies, invoices } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";
import { type InvoiceRow, presentInvoice } from "./presenter.js";

/**
 * Whose invoices a caller reads: a super user's scope is every company (null), anyone else's is their
 * own company. Every finder here takes it, so a foreign id is simply not found.
 */
export type InvoiceScope = { companyId: number | null };

const inScope = (scope: InvoiceScope) => (scope.companyId === null ? undefined : eq(invoices.companyId, scope.companyId));

/**
 * GET /invoices/all (secondary §2 Facturas): 20 a page, the latest due date first; the search matches
 * the detail (the plan's name) or, for a super user, the company's name. One row more than a page is
 * read to tell whether another page follows.
 */
export async function pageInvoices(
  db: Db,
  scope: InvoiceScope,
  search: string,
  pageNumber: number,
): Promise<{ invoices: InvoiceView[]; hasMore: boolean }> {
  const term = search ? `%${escapeLike(search)}%` : null;
  const rows = await db
    .select({ invoice: invoices, companyName: companies.name })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(inScope(scope), term ? or(ilike(invoices.detail, term), ilike(companies.name, term)) : undefined))
    .orderBy(desc(invoices.dueDate), desc(invoices.id))
    .limit(InvoicesPage + 1)
    .offset((pageNumber - 1) * InvoicesPage);
  return {
    invoices: rows.slice(0, InvoicesPage).map((r) => presentInvoice(r.invoice, r.companyName)),
    hasMore: rows.length > InvoicesPage,
  };
}

/** One invoice within the caller's scope, with its company's name (null: none there). */
export async function findInvoice(
  db: Db | Tx,
  scope: InvoiceScope,
  id: number,
): Promise<{ invoice: InvoiceRow; companyName: string } | null> {
  const rows = await db
    .select({ invoice: invoices, companyName: companies.name })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(eq(invoices.id, id), inScope(scope)))
    .limit(1);
  return rows[0] ?? null;
}
