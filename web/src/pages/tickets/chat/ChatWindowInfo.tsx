import ClosedIcon from "@mui/icons-material/LockClockOutlined";
import OpenIcon from "@mui/icons-material/ScheduleOutlined";
import Box from "@mui/material/Box";
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
export function ChatWindowInfo({ state }: { state: WindowState }) {
  const { t } = useTranslation("chat");
  if (!state.applies) return null;
  const open = state.open;
  const label = open ? leftText(t, state.msLeft) : t("window.closed");
  const color = open ? (state.msLeft < HOUR_MS ? "warning.main" : "success.main") : "error.main";
  // in the header's line of facts, first: the name beside it keeps its room
  return (
    <Tooltip title={t(open ? "window.openTip" : "window.closedTip")}>
      <Box
        component="span"
        data-testid="chat-window"
        data-open={open}
        sx={{ display: "inline-flex", alignItems: "center", gap: 0.4, color, fontWeight: 600, flexShrink: 0 }}
      >
        {open ? <OpenIcon sx={{ fontSize: 14 }} /> : <ClosedIcon sx={{ fontSize: 14 }} />}
        <span>{label}</span>
      </Box>
    </Tooltip>
  );
}
