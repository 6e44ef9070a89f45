export type PaymentEvents = {
  /**
   * A confirmed payment was committed (secondary §4 Checkout): the invoice is paid and the company's
   * due date moved to `dueDate`. Its users are told (`company-{id}-payment`, action CONCLUIDA).
   */
  "payment.confirmed": { companyId: number; invoiceId: number; dueDate: string };
};
