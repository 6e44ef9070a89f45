import type { ConnectionView } from "@charla/contracts";
import QrIcon from "@mui/icons-material/QrCode2";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  connection: ConnectionView;
  /** A session call for this connection is under way: its buttons wait. */
  busy: boolean;
  onQr: () => void;
  onRetry: () => void;
  onNewQr: () => void;
  onDisconnect: () => void;
};

const small = { size: "small", sx: { whiteSpace: "nowrap", flexShrink: 0 } } as const;

/** core §4 Connection status and the buttons shown. */
export function SessionButtons({ connection, busy, onQr, onRetry, onNewQr, onDisconnect }: Props) {
  const { t } = useTranslation("connections");
  const spinner = <CircularProgress size={14} color="inherit" />;
  const retryButton = () => (
    <Button
      {...small}
      variant="outlined"
      color="inherit"
      sx={{ ...small.sx, borderColor: "divider" }}
      disabled={busy}
      startIcon={busy ? spinner : undefined}
      onClick={onRetry}
      data-testid="connection-retry"
    >
      {t(connection.provider === "cloud" ? "buttons.check" : "buttons.retry")}
    </Button>
  );
  let buttons: ReactNode = null;
  // Meta's API has no QR, pairing or session to close: a connection that does not answer is checked again
  if (connection.provider === "cloud") {
    if (connection.status !== "CONNECTED") buttons = retryButton();
    return <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>{buttons}</Box>;
  }
  switch (connection.status) {
    case "qrcode":
      buttons = (
        <Button {...small} variant="contained" startIcon={<QrIcon />} disabled={busy} onClick={onQr} data-testid="connection-qr">
          {t("buttons.qrcode")}
        </Button>
      );
      break;
    case "DISCONNECTED":
      buttons = (
        <>
          {retryButton()}
          <Button {...small} variant="contained" disabled={busy} onClick={onNewQr} data-testid="connection-new-qr">
            {t("buttons.newQr")}
          </Button>
        </>
      );
      break;
    case "CONNECTED":
    case "PAIRING":
    case "TIMEOUT":
      buttons = (
        <Button
          {...small}
          variant="outlined"
          color="error"
          disabled={busy}
          startIcon={busy ? spinner : undefined}
          onClick={onDisconnect}
          data-testid="connection-disconnect"
        >
          {t("buttons.disconnect")}
        </Button>
      );
      break;
    case "OPENING":
      buttons = (
        <Button {...small} variant="outlined" disabled startIcon={spinner} data-testid="connection-connecting">
          {t("buttons.connecting")}
        </Button>
      );
      break;
  }
  return <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>{buttons}</Box>;
}
