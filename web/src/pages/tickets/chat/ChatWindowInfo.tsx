import ClosedIcon from "@mui/icons-material/LockClockOutlined";
import OpenIcon from "@mui/icons-material/ScheduleOutlined";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import type { WindowState } from "./use-chat-window";

const HOUR_MS = 3_600_000;

/** Under an hour left, the chip warns: the agent may still answer freely, but not for long. */
function leftText(t: (key: string, values?: Record<string, unknown>) => string, msLeft: number): string {
  if (msLeft >= HOUR_MS) return t("window.open", { hours: Math.floor(msLeft / HOUR_MS) });
  return t("window.openMinutes", { minutes: Math.max(1, Math.ceil(msLeft / 60_000)) });
}

/**
 * Meta's 24-hour customer-service window of a Cloud API chat (issue 31): open and when it closes, or
 * closed (only approved templates go then). Nothing for channels without a window.
 */
export function ChatWindowChip({ state }: { state: WindowState }) {
  const { t } = useTranslation("chat");
  if (!state.applies) return null;
  const open = state.open;
  const label = open ? leftText(t, state.msLeft) : t("window.closed");
  return (
    <Tooltip title={t(open ? "window.openTip" : "window.closedTip")}>
      <Chip
        size="small"
        variant="outlined"
        icon={open ? <OpenIcon /> : <ClosedIcon />}
        color={open ? (state.msLeft < HOUR_MS ? "warning" : "success") : "error"}
        label={label}
        data-testid="chat-window"
        data-open={open}
        sx={{ height: 22, fontSize: 11.5, flexShrink: 0, "& .MuiChip-icon": { fontSize: 15 } }}
      />
    </Tooltip>
  );
}
