import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import ScheduleIcon from "@mui/icons-material/Schedule";
import { useTranslation } from "react-i18next";

/** WhatsApp's read-receipt blue. */
export const READ_BLUE = "#53bdeb";

/** core §2: 0 pending (clock), 1–2 one tick, 3 two ticks, 4–5 two blue ticks. */
export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation("chat");
  const sx = { fontSize: 16, display: "block" };
  if (ack >= 4) return <DoneAllIcon sx={{ ...sx, color: READ_BLUE }} titleAccess={t("ack.read")} />;
  if (ack === 3) return <DoneAllIcon sx={sx} titleAccess={t("ack.delivered")} />;
  if (ack >= 1) return <DoneIcon sx={sx} titleAccess={t("ack.sent")} />;
  return <ScheduleIcon sx={{ ...sx, fontSize: 14 }} titleAccess={t("ack.pending")} />;
}
