import type { ConnectionStatus } from "@charla/contracts";
import QrPendingIcon from "@mui/icons-material/CropFree";
import ConnectedIcon from "@mui/icons-material/SignalCellular4Bar";
import DisconnectedIcon from "@mui/icons-material/SignalCellularConnectedNoInternet0Bar";
import LostIcon from "@mui/icons-material/SignalCellularConnectedNoInternet2Bar";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** core §4: tooltips for disconnected, qrcode, connected and timeout; the timeout one also covers PAIRING. */
const tooltipOf: Partial<Record<ConnectionStatus, "disconnected" | "qrcode" | "connected" | "timeout">> = {
  DISCONNECTED: "disconnected",
  qrcode: "qrcode",
  CONNECTED: "connected",
  TIMEOUT: "timeout",
  PAIRING: "timeout",
};

function iconOf(status: ConnectionStatus): ReactNode {
  switch (status) {
    case "CONNECTED":
      return <ConnectedIcon color="success" />;
    case "qrcode":
      return <QrPendingIcon color="warning" />;
    case "OPENING":
      return <CircularProgress size={20} color="info" />;
    case "DISCONNECTED":
      return <DisconnectedIcon color="error" />;
    default:
      // TIMEOUT, PAIRING
      return <LostIcon color="error" />;
  }
}

export function ConnectionStatusIcon({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation("connections");
  const key = tooltipOf[status];
  const label = t(`status.${status}`);
  const icon = (
    <Box
      role="img"
      aria-label={label}
      data-testid="connection-status"
      data-status={status}
      sx={{ display: "inline-flex", alignItems: "center", justifyContent: "center", width: 28, height: 28, flexShrink: 0 }}
    >
      {iconOf(status)}
    </Box>
  );
  if (!key) return icon;
  const content = key === "connected" ? null : t(`tooltips.${key}.content`);
  return (
    <Tooltip
      arrow
      title={
        <Box sx={{ py: 0.25 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t(`tooltips.${key}.title`)}
          </Typography>
          {content && <Typography variant="caption">{content}</Typography>}
        </Box>
      }
    >
      {icon}
    </Tooltip>
  );
}
