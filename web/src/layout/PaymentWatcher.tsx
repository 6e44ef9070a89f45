import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { invalidateInvoices } from "../api/invoices";
import { useAuth } from "../auth/context";
import i18n from "../i18n";
import { formatDate } from "../lib/company-time";
import { toast } from "../lib/toast";
import { useSocketEvent } from "../realtime/context";

/** secondary §9: the payment redirect delay. */
export const PAYMENT_REDIRECT_MS = 4000;

/**
 * secondary §4 Checkout: a confirmed payment (company-{id}-payment, action CONCLUIDA) reaches every
 * signed-in user of the company, wherever they are: the licence's new due date is said, the invoices
 * and the session's due date follow, and after 4 s everyone goes to /.
 */
export function PaymentWatcher() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user, updateUser } = useAuth();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useSocketEvent("payment", (event) => {
    if (event.action !== "CONCLUIDA") return;
    void invalidateInvoices(client);
    if (user && event.company.id === user.companyId) updateUser({ company: { ...user.company, dueDate: event.company.dueDate } });
    // the text lives with the billing page's, which this screen may not have loaded
    void i18n.loadNamespaces("financeiro").then(() =>
      toast.success(i18n.t("financeiro:renewed", { date: formatDate(event.company.dueDate) }), {
        autoClose: PAYMENT_REDIRECT_MS,
      }),
    );
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate("/"), PAYMENT_REDIRECT_MS);
  });
  return null;
}
