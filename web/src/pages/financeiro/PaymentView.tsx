import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CheckIcon from "@mui/icons-material/Check";
import CopyIcon from "@mui/icons-material/ContentCopy";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { InstantPaymentView } from "../../api/invoices";
import { QrImage } from "../../components/QrImage";
import { formatMoney } from "../../i18n/money";
import { toast } from "../../lib/toast";

const QR_SIZE = 220;
/** secondary §9: the copy confirmation shows for 1 s. */
const COPIED_MS = 1000;

/** Copies through the clipboard API, else through the selected field (a page the API refuses). */
async function copyText(text: string, field: HTMLTextAreaElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select();
    return document.execCommand?.("copy") ?? false;
  }
}

/** The instant-payment view (secondary §4): the QR, the copy-and-paste code and the amount charged. */
export function PaymentView({ payment }: { payment: InstantPaymentView }) {
  const { t } = useTranslation("financeiro");
  const payload = payment.qrcode.qrcode;
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    if (await copyText(payload, field.current)) setCopied(true);
    else toast.error(t("common:feedback.generic"));
  };

  return (
    <Box
      sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1.5, textAlign: "center" }}
      data-testid="payment-view"
    >
      <Typography variant="h6" component="p">
        {t("checkout.qr.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("checkout.qr.scan")}
      </Typography>
      <QrImage value={payload} alt={t("checkout.qr.alt")} size={QR_SIZE} level="M" testId="payment-qr" />
      <Box>
        <Typography variant="body2" color="text.secondary">
          {t("checkout.qr.amount")}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid="payment-amount">
          {formatMoney(payment.valor.original)}
        </Typography>
      </Box>
      <TextField
        label={t("checkout.qr.payload")}
        value={payload}
        fullWidth
        multiline
        maxRows={8}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: {
            readOnly: true,
            "data-testid": "payment-payload",
            ref: field,
            style: { fontFamily: "monospace", fontSize: 12 },
          },
        }}
      />
      <Button
        variant={copied ? "outlined" : "contained"}
        color={copied ? "success" : "primary"}
        startIcon={copied ? <CheckIcon /> : <CopyIcon />}
        onClick={copy}
        data-testid="payment-copy"
        data-copied={copied}
        sx={{ minWidth: 200 }}
      >
        {t(copied ? "checkout.qr.copied" : "checkout.qr.copy")}
      </Button>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "text.secondary" }}>
        <CircularProgress size={14} color="inherit" />
        <Typography variant="caption">{t("checkout.qr.waiting")}</Typography>
      </Box>
    </Box>
  );
}
