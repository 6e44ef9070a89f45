import type { ConnectionStatus, ConnectionView } from "@charla/contracts";
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
import { useUnreachable } from "./use-unreachable";

type Shown = Pick<ConnectionView, "status" | "statusReason" | "provider" | "updatedAt">;

/**
 * What went wrong, as a key of `reasons`: the session's own reason, or a real phone's session that
 * has not reached WhatsApp within the bounded wait ("UNREACHABLE", said by the page).
 */
function useReason(connection: Shown): string {
  const unreachable = useUnreachable(connection);
  return connection.statusReason || (unreachable ? "UNREACHABLE" : "");
}

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
export function StatusReasonText({ connection }: { connection: Shown }) {
  const { t } = useTranslation("connections");
  const reason = useReason(connection);
  if (!reason) return null;
  return (
    <Typography variant="caption" color="error" data-testid="connection-status-reason" data-reason={reason}>
      {t(`reasons.${reason}.title`)}
    </Typography>
  );
}

export function ConnectionStatusIcon({ connection }: { connection: Shown }) {
  const { t } = useTranslation("connections");
  const { status } = connection;
  const reason = useReason(connection);
  // the simulator has no phone, internet or QR to speak of: its own words (issue 26)
  const simulator = connection.provider === "simulator";
  // nor has Meta's API: its status says whether the token and the number answered (issue 31)
  const cloud = connection.provider === "cloud";
  const key = reason ? status : tooltipOf[status];
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
  const own = simulator ? "simulator" : cloud ? "cloud" : null;
  const base = own ? `tooltips.${own}.${status === "CONNECTED" ? "connected" : "stopped"}` : `tooltips.${key}`;
  const title = reason ? t(`reasons.${reason}.title`) : t(`${base}.title`);
  const content = reason ? t(`reasons.${reason}.content`) : key === "connected" && !own ? null : t(`${base}.content`);
  return (
    <Tooltip
      arrow
      title={
        <Box sx={{ py: 0.25 }} data-testid="connection-status-tooltip">
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
