import { invoiceDisplayStatus, todayIn } from "@charla/contracts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type InvoiceView, invoiceCollection } from "../../api/invoices";
import { usePermission } from "../../auth/permissions";
import { narrowOnly } from "../../components/ListTable";
import { type Column, ListPage } from "../../components/list-kit/ListPage";
import { formatDate, useCompanyZone } from "../../lib/company-time";
import { formatMoney } from "../../i18n/money";
import { CheckoutDialog } from "./CheckoutDialog";
import { InvoicePayButton, InvoiceStatusChip } from "./InvoiceStatus";

/**
 * secondary §2 Billing: "Facturas", infinitely scrolled, each invoice Pago / Vencido (tinted) / Abierto
 * with PAGAR (the checkout) or an inert PAGO. Super users read every company's invoices, a company's
 * admin their own: the API decides, the page only adds the company column for the first.
 */
export default function FinanceiroPage() {
  const { t } = useTranslation("financeiro");
  const everyCompany = usePermission("financeiro.view");
  // overdue is a day of the company's own calendar, not the browser's
  const today = todayIn(useCompanyZone());
  const statusOf = (invoice: InvoiceView) => invoiceDisplayStatus(invoice, today);
  const [paying, setPaying] = useState<InvoiceView | null>(null);

  const columns: Column<InvoiceView>[] = [
    { label: t("columns.id"), wide: true, cell: (invoice) => invoice.id },
    {
      label: t("columns.detail"),
      cell: (invoice) => (
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 500 }} data-testid="invoice-detail">
            {invoice.detail}
          </Typography>
          <Box sx={{ ...narrowOnly, mt: 0.5 }}>
            {everyCompany && (
              <Typography variant="caption" color="text.secondary" component="div">
                {invoice.companyName}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
              {formatMoney(invoice.value)} · {formatDate(invoice.dueDate)}
            </Typography>
            <InvoiceStatusChip status={statusOf(invoice)} />
          </Box>
        </Box>
      ),
    },
    ...(everyCompany ? [{ label: t("columns.company"), wide: true, cell: (invoice: InvoiceView) => invoice.companyName }] : []),
    {
      label: t("columns.value"),
      wide: true,
      align: "right",
      cell: (invoice) => (
        <Box component="span" sx={{ whiteSpace: "nowrap" }} data-testid="invoice-value">
          {formatMoney(invoice.value)}
        </Box>
      ),
    },
    {
      label: t("columns.dueDate"),
      wide: true,
      cell: (invoice) => (
        <Box component="span" data-testid="invoice-due">
          {formatDate(invoice.dueDate)}
        </Box>
      ),
    },
    { label: t("columns.status"), wide: true, cell: (invoice) => <InvoiceStatusChip status={statusOf(invoice)} /> },
  ];

  return (
    <ListPage<InvoiceView>
      title={t("title")}
      testId="invoices"
      useRows={invoiceCollection.useList}
      searchLabel={t("search")}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="invoice"
      rowData={(invoice) => ({ "data-invoice-id": invoice.id, "data-status": statusOf(invoice) })}
      rowTone={(invoice) => (statusOf(invoice) === "overdue" ? "error" : undefined)}
      rowExtra={(invoice) => <InvoicePayButton paid={invoice.status === "paid"} onPay={() => setPaying(invoice)} />}
      columns={columns}
    >
      {paying && <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />}
    </ListPage>
  );
}
