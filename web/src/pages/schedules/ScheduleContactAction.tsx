import ScheduleIcon from "@mui/icons-material/ScheduleSendOutlined";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { usePermission } from "../../auth/permissions";

/**
 * "Programar": a new schedule for a contact, opened on /schedules?contactId=… (secondary §2); shown
 * only when the plan has schedules (the rule carries useSchedules). `button` in the contact drawer,
 * an icon in the contacts table's rows.
 */
export function ScheduleContactAction({ contactId, variant }: { contactId: number; variant: "button" | "icon" }) {
  const { t } = useTranslation("schedules");
  const allowed = usePermission("schedules.use");
  const navigate = useNavigate();
  if (!allowed) return null;
  const open = () => navigate(`/schedules?contactId=${contactId}`);
  if (variant === "button") {
    return (
      <Button variant="outlined" size="small" startIcon={<ScheduleIcon />} onClick={open} data-testid="contact-schedule">
        {t("schedule")}
      </Button>
    );
  }
  return (
    <Tooltip title={t("schedule")}>
      <IconButton size="small" aria-label={t("schedule")} data-testid="contact-schedule" onClick={open}>
        <ScheduleIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
