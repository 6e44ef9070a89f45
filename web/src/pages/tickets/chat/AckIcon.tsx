import { type AckError, ackMark } from "@charla/contracts";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ErrorIcon from "@mui/icons-material/ErrorOutlined";
import ScheduleIcon from "@mui/icons-material/Schedule";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";

/** WhatsApp's read-receipt blue. */
export const READ_BLUE = "#53bdeb";

/**
 * core §2 on WhatsApp's scale (docs/acks.md): 0 a clock, 1–2 one tick, 3 two grey ticks, 4–5 two
 * blue ticks; -1 an error mark whose tooltip says why.
 */
export function AckIcon({ ack, error }: { ack: number; error?: AckError | null }) {
  const { t } = useTranslation("chat");
  const sx = { fontSize: 16, display: "block" };
  const mark = ackMark(ack);
  if (mark === "failed") {
    const reason = error ? t(error, { ns: "errors" }) : "";
    const label = reason ? `${t("ack.failed")}: ${reason}` : t("ack.failed");
    return (
      <Tooltip title={label}>
        <ErrorIcon
          sx={{ ...sx, color: "error.main" }}
          aria-label={label}
          aria-hidden={false}
          role="img"
          data-testid="ack-failed"
        />
      </Tooltip>
    );
  }
  if (mark === "read") return <DoneAllIcon sx={{ ...sx, color: READ_BLUE }} titleAccess={t("ack.read")} data-testid="ack-read" />;
  if (mark === "delivered") return <DoneAllIcon sx={sx} titleAccess={t("ack.delivered")} data-testid="ack-delivered" />;
  if (mark === "sent") return <DoneIcon sx={sx} titleAccess={t("ack.sent")} data-testid="ack-sent" />;
  return <ScheduleIcon sx={{ ...sx, fontSize: 14 }} titleAccess={t("ack.pending")} data-testid="ack-pending" />;
}
