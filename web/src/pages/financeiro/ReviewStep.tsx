import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Typography from "@mui/material/Typography";
import type { Control } from "react-hook-form";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { InvoiceView } from "../../api/invoices";
import { formatMoney } from "../../i18n/money";
import type { CheckoutValues } from "./checkout-form";
import { SummaryLine } from "./PlanStep";

/** Step 'Revisar' (secondary §4): what is paid and whom it is billed to, then PAGAR. */
export function ReviewStep(props: { invoice: InvoiceView; control: Control<CheckoutValues>; onEdit: () => void }) {
  const { t } = useTranslation("financeiro");
  const values = useWatch({ control: props.control });
  const name = [values.firstName, values.lastName].filter(Boolean).join(" ");
  const place = [values.city, values.state, values.zipcode].filter(Boolean).join(", ");
  const country = values.country ? t(`checkout.countries.${values.country}`) : "";
  const billing = [name, values.address2, place, country].filter(Boolean);
  return (
    <Box data-testid="checkout-review">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t("checkout.review.title")}
      </Typography>
      <Box sx={{ mt: 1.5, p: 2, borderRadius: 1, border: 1, borderColor: "divider" }}>
        <SummaryLine label={t("checkout.plan.detail")}>{props.invoice.detail}</SummaryLine>
        <Box sx={{ py: 0.75 }}>
          <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {t("checkout.review.billingTo")}
            </Typography>
            <Button size="small" onClick={props.onEdit} data-testid="checkout-review-edit">
              {t("checkout.review.edit")}
            </Button>
          </Box>
          {billing.map((line) => (
            <Typography key={line} variant="body2" sx={{ wordBreak: "break-word" }}>
              {line}
            </Typography>
          ))}
        </Box>
        <Divider sx={{ my: 1 }} />
        <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: 2 }}>
          <Typography variant="body1" sx={{ fontWeight: 600 }}>
            {t("checkout.review.total")}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid="checkout-total">
            {formatMoney(props.invoice.value)}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
