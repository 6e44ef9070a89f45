import type { ConnectionView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { usePairingCode } from "../../api/connections";
import { toastError } from "../../api/errors";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import { QrImage } from "../../components/QrImage";
import { useUnreachable } from "./use-unreachable";

const QR_SIZE = 264;

type Props = {
  open: boolean;
  /** The live connection (from the list cache), or null once it is gone. */
  connection: ConnectionView | null;
  onClose: () => void;
};

/** core §2/§4: the QR of a connection waiting to be linked, replaced live; closes once CONNECTED. */
export function QrModal({ open, connection, onClose }: Props) {
  const { t } = useTranslation("connections");
  const status = connection?.status;

  useEffect(() => {
    if (open && (status === "CONNECTED" || connection === null)) onClose();
  }, [open, status, connection, onClose]);

  const qrcode = connection?.status === "qrcode" ? connection.qrcode : "";
  const pairingCode = connection?.status === "PAIRING" ? connection.qrcode : "";
  const pairing = usePairingCode();
  const byCode = Boolean(pairingCode) || pairing.isPending;
  const unreachable = useUnreachable(connection);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth slotProps={{ paper: { "data-testid": "qr-modal" } as object }}>
      <DialogTitle>{connection?.name ?? ""}</DialogTitle>
      <DialogContent
        sx={{
          display: "flex",
          flexDirection: { xs: "column-reverse", sm: "row" },
          gap: 3,
          alignItems: { xs: "stretch", sm: "center" },
        }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
            {byCode ? t("qr.code.title") : t("qr.title")}
          </Typography>
          <Box component="ol" sx={{ m: 0, pl: 2.5, display: "flex", flexDirection: "column", gap: 1, color: "text.secondary" }}>
            <Typography component="li" variant="body2">
              {t("qr.steps.open")}
            </Typography>
            <Typography component="li" variant="body2">
              {t("qr.steps.devices")}
            </Typography>
            <Typography component="li" variant="body2">
              {byCode ? t("qr.code.link") : t("qr.steps.link")}
            </Typography>
          </Box>
        </Box>
        <Box
          sx={{
            width: QR_SIZE,
            maxWidth: "100%",
            minHeight: QR_SIZE,
            alignSelf: "center",
            display: "grid",
            placeItems: "center",
            flexShrink: 0,
          }}
        >
          {pairingCode ? (
            <Typography
              data-testid="pairing-code"
              aria-label={t("qr.code.label")}
              sx={{ fontFamily: "monospace", fontSize: 34, fontWeight: 700, letterSpacing: 4, textAlign: "center" }}
            >
              {pairingCode.length === 8 ? `${pairingCode.slice(0, 4)}-${pairingCode.slice(4)}` : pairingCode}
            </Typography>
          ) : qrcode && !pairing.isPending ? (
            <QrImage value={qrcode} alt={t("qr.image", { name: connection?.name ?? "" })} size={QR_SIZE} testId="qr-image" />
          ) : unreachable ? (
            <Alert severity="error" data-testid="qr-unreachable">
              <AlertTitle>{t("reasons.UNREACHABLE.title")}</AlertTitle>
              {t("reasons.UNREACHABLE.content")}
            </Alert>
          ) : (
            <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 2, color: "text.secondary" }}>
              <CircularProgress />
              <Typography variant="body2">{t("qr.waiting")}</Typography>
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        {connection && !byCode && (
          <Button
            onClick={() => pairing.mutate({ id: connection.id }, { onError: (error) => toastError(error) })}
            data-testid="qr-pair-by-code"
          >
            {t("qr.code.button")}
          </Button>
        )}
        <Button onClick={onClose} color="inherit" data-testid="qr-close">
          {t("common:actions.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
