import type { CompanyView, InstantPaymentView, InvoiceView, SubscriptionForm } from "@charla/contracts";
import { type QueryClient, useMutation, useQuery } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { InstantPaymentView, InvoiceView };

/**
 * secondary §7 Billing: GET /invoices/all, 20 a page (searchParam, pageNumber). A super user reads
 * every company's invoices, anyone else their own company's: the API decides which.
 */
export const invoiceCollection = defineCollection<InvoiceView>({
  name: "invoices",
  path: "/invoices/all",
  // the spec's bare array carries hasMore in a header; `paged` asks for the `{invoices, hasMore}` page
  params: { paged: 1 },
  pageField: "invoices",
  matches: (invoice, search) => {
    const needle = search.trim().toLowerCase();
    return !needle || invoice.detail.toLowerCase().includes(needle) || invoice.companyName.toLowerCase().includes(needle);
  },
});

/** A confirmed payment (company-{id}-payment) changes an invoice and the due date: the lists read again. */
export function invalidateInvoices(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: ["invoices"] });
}

/**
 * POST /subscription (secondary §7): the checkout's billing data for one invoice; the answer is the
 * instant-payment payload for the invoice's own amount (whatever price the form carried).
 */
export function useSubscribe() {
  return useMutation({
    mutationFn: (form: SubscriptionForm) => api<InstantPaymentView>("/subscription", { method: "POST", body: form }),
  });
}

/**
 * GET /companies/{id}: the invoice's company, for its time zone (an invoice is overdue by the company's
 * own calendar), its plan (the checkout's summary) and the billing address it last gave.
 */
export function useBillingCompany(companyId: number | null) {
  return useQuery({
    queryKey: ["invoices", "company", companyId],
    queryFn: ({ signal }) => api<CompanyView>(`/companies/${companyId}`, { signal }),
    enabled: companyId !== null,
    staleTime: 60_000,
  });
}
