import type { InvoiceDisplayStatus } from "@charla/contracts";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import { useTranslation } from "react-i18next";

const chipColor = { paid: "success", overdue: "error", open: "warning" } as const;

/** secondary §4 Invoice display status: Pago, Vencido, Abierto. */
export function InvoiceStatusChip({ status }: { status: InvoiceDisplayStatus }) {
  const { t } = useTranslation("financeiro");
  return (
    <Chip
      size="small"
      variant="outlined"
      color={chipColor[status]}
      label={t(`status.${status}`)}
      data-testid="invoice-status"
      data-status={status}
    />
  );
}

/** PAGAR opens the checkout; a paid invoice shows PAGO, which does nothing (secondary §4). */
export function InvoicePayButton({ paid, onPay }: { paid: boolean; onPay: () => void }) {
  const { t } = useTranslation("financeiro");
  if (paid)
    return (
      <Button
        size="small"
        variant="outlined"
        color="success"
        aria-disabled
        tabIndex={-1}
        disableRipple
        sx={{ pointerEvents: "none", minWidth: 84 }}
        data-testid="invoice-paid"
      >
        {t("paidButton")}
      </Button>
    );
  return (
    <Button size="small" variant="contained" onClick={onPay} sx={{ minWidth: 84 }} data-testid="invoice-pay">
      {t("pay")}
    </Button>
  );
}
