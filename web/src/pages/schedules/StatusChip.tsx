import type { ScheduleView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors";

const COLOURS = { PENDENTE: "default", ENVIANDO: "info", ENVIADA: "success", ERRO: "error", CANCELADA: "default" } as const;

/** The status capitalised (secondary §4); ERRO as a send error with its reason; late marked. */
export function StatusChip({ s }: { s: ScheduleView }) {
  const { t } = useTranslation("schedules");
  const reason = s.status === "ERRO" && s.error ? errorText({ error: s.error }) : undefined;
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", alignItems: "center" }}>
      <Tooltip title={reason ?? ""}>
        <Chip
          size="small"
          variant="outlined"
          color={COLOURS[s.status]}
          label={t(`status.${s.status}`)}
          data-testid="schedule-status"
        />
      </Tooltip>
      {s.late && (
        <Tooltip title={t("lateHelp")}>
          <Chip size="small" color="warning" variant="outlined" label={t("late")} data-testid="schedule-late" />
        </Tooltip>
      )}
      {reason && (
        <Typography variant="caption" color="error" sx={{ width: "100%" }} data-testid="schedule-error">
          {reason}
        </Typography>
      )}
    </Box>
  );
}
