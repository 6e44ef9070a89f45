import type { CampaignStatus } from "@charla/contracts";
import Chip, { type ChipProps } from "@mui/material/Chip";
import { useTranslation } from "react-i18next";

const colors: Record<CampaignStatus, ChipProps["color"]> = {
  INATIVA: "default",
  PROGRAMADA: "info",
  EM_ANDAMENTO: "warning",
  CANCELADA: "error",
  FINALIZADA: "success",
};

/** secondary §4: the status under its shown name ('Inactiva', 'Programada', 'En Proceso'…). */
export function CampaignStatusChip({ status, testId = "campaign-status" }: { status: CampaignStatus; testId?: string }) {
  const { t } = useTranslation("campaigns");
  return (
    <Chip
      size="small"
      label={t(`status.${status}`)}
      color={colors[status]}
      variant={status === "INATIVA" ? "outlined" : "filled"}
      data-testid={testId}
      data-status={status}
    />
  );
}
