import type { ConnectionStatus, StatusReason } from "@charla/contracts";
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

/** Why the session stopped by itself, in words, under the status (the tooltip says what to do). */
export function StatusReasonText({ reason }: { reason: StatusReason }) {
  const { t } = useTranslation("connections");
  if (!reason) return null;
  return (
    <Typography variant="caption" color="error" data-testid="connection-status-reason" data-reason={reason}>
      {t(`reasons.${reason}.title`)}
    </Typography>
  );
}

export function ConnectionStatusIcon({ status, reason = "" }: { status: ConnectionStatus; reason?: StatusReason }) {
  const { t } = useTranslation("connections");
  const key = tooltipOf[status];
  const label = reason ? `${t(`status.${status}`)}: ${t(`reasons.${reason}.title`)}` : t(`status.${status}`);
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
  const title = reason ? t(`reasons.${reason}.title`) : t(`tooltips.${key}.title`);
  const content = reason ? t(`reasons.${reason}.content`) : key === "connected" ? null : t(`tooltips.${key}.content`);
  return (
    <Tooltip
      arrow
      title={
        <Box sx={{ py: 0.25 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {content && <Typography variant="caption">{content}</Typography>}
        </Box>
      }
    >
      {icon}
    </Tooltip>
  );
}
