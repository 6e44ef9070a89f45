import type { CompanyView, SubscriptionForm } from "@charla/contracts";
import type { z } from "zod";
import type { InvoiceView } from "../../api/invoices";

export type CheckoutValues = SubscriptionForm;
export type CheckoutOutput = z.output<typeof import("@charla/contracts").SubscriptionForm>;

/** The billing step's fields, in the order they are shown; a failed submit returns to that step. */
export const billingFields = ["firstName", "lastName", "address2", "city", "state", "zipcode", "country"] as const;

/**
 * The form as it opens: the company's billing name and address when it gave them before. Plan, price,
 * users and connections are what the summary shows; the API charges the invoice's own value regardless.
 */
export function checkoutDefaults(invoice: InvoiceView, company: CompanyView | undefined): CheckoutValues {
  return {
    invoiceId: invoice.id,
    firstName: company?.billingName ?? "",
    lastName: "",
    address2: company?.addressStreet ?? "",
    city: company?.addressCity ?? "",
    state: company?.addressState ?? "",
    zipcode: company?.addressZipCode ?? "",
    country: undefined as unknown as CheckoutValues["country"],
    useAddressForPaymentDetails: false,
    nameOnCard: "",
    cardNumber: "",
    cvv: "",
    plan: company?.plan?.name ?? "",
    price: invoice.value,
    users: company?.plan?.users ?? null,
    connections: company?.plan?.connections ?? null,
  };
}
