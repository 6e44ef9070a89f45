import type { CompanyView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { InvoiceView } from "../../api/invoices";
import { formatDate } from "../../lib/company-time";
import { formatMoney } from "../../i18n/money";

export function SummaryLine({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "space-between", gap: 2, py: 0.75 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, textAlign: "right", wordBreak: "break-word" }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

/** Step 'Personalizar', where the checkout opens (secondary §4): the plan and the invoice being paid. */
export function PlanStep({ invoice, company }: { invoice: InvoiceView; company: CompanyView | undefined }) {
  const { t } = useTranslation(["financeiro", "signup"]);
  const plan = company?.plan;
  return (
    <Box data-testid="checkout-plan">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t("checkout.plan.title")}
      </Typography>
      <Box sx={{ mt: 1.5, p: 2, borderRadius: 1, border: 1, borderColor: "divider", bgcolor: "action.hover" }}>
        {plan && (
          <>
            <Typography variant="h6" component="p" data-testid="checkout-plan-name">
              {plan.name}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t("signup:planLimits", { users: plan.users, connections: plan.connections, queues: plan.queues })}
            </Typography>
            <Divider sx={{ my: 1.5 }} />
          </>
        )}
        <SummaryLine label={t("checkout.plan.company")}>{invoice.companyName}</SummaryLine>
        <SummaryLine label={t("checkout.plan.detail")} testId="checkout-detail">
          {invoice.detail}
        </SummaryLine>
        <SummaryLine label={t("checkout.plan.dueDate")}>{formatDate(invoice.dueDate)}</SummaryLine>
        <Divider sx={{ my: 1 }} />
        <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {t("checkout.plan.perMonth")}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid="checkout-value">
            {formatMoney(invoice.value)}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
