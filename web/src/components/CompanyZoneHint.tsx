import ScheduleIcon from "@mui/icons-material/ScheduleOutlined";
import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import { browserZone, formatOffset, useCompanyZone, zoneDiffersFromBrowser } from "../lib/company-time";
import Tooltip from "./LightTooltip";

/** "Hora de la empresa: America/Noronha (UTC−2)": under the fields where a date and hour are typed. */
export function useCompanyZoneText(): string {
  const { t } = useTranslation("common");
  const zone = useCompanyZone();
  return t("time.companyZone", { zone, offset: formatOffset(zone) });
}

/**
 * The top bar's mark that every time on screen is the company's, drawn only while the browser's clock
 * reads differently (a user travelling, a company in another zone): its offset, the rest in the tooltip.
 */
export function CompanyZoneHint() {
  const { t } = useTranslation("common");
  const zone = useCompanyZone();
  if (!zoneDiffersFromBrowser(zone)) return null;
  const offset = formatOffset(zone);
  const browser = browserZone();
  const notice = t("time.notice", { zone, offset, browser, browserOffset: formatOffset(browser) });
  return (
    <Tooltip title={notice}>
      <Box
        role="note"
        aria-label={notice}
        tabIndex={0}
        data-testid="company-zone-hint"
        data-zone={zone}
        sx={{ display: "flex", alignItems: "center", gap: 0.5, px: 0.5, fontSize: 13, opacity: 0.85, whiteSpace: "nowrap" }}
      >
        <ScheduleIcon sx={{ fontSize: 18 }} />
        <Box component="span" sx={{ display: { xs: "none", sm: "inline" } }}>
          {offset}
        </Box>
      </Box>
    </Tooltip>
  );
}
