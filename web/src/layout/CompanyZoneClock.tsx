import ScheduleIcon from "@mui/icons-material/ScheduleOutlined";
import Box from "@mui/material/Box";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Tooltip from "../components/LightTooltip";
import { browserZone, formatOffset, formatTime } from "../lib/company-time";

/** Now, again at each minute's turn. */
function useMinute(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), 60_000 - (now % 60_000) + 50);
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

/**
 * The top bar's mark that every time on screen is the company's, for a browser whose clock reads
 * differently (a user travelling, a company in another zone): the company's hour now and its offset,
 * so the lists' hours can be read against it; both zones by name in the tooltip.
 */
export default function CompanyZoneClock({ zone }: { zone: string }) {
  const { t } = useTranslation("common");
  const now = useMinute();
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
        sx={{ display: "flex", alignItems: "center", gap: 0.5, px: 0.5, fontSize: 13, whiteSpace: "nowrap" }}
      >
        <ScheduleIcon sx={{ fontSize: 18, opacity: 0.85 }} />
        <Box component="span" sx={{ display: { xs: "none", sm: "inline" }, fontWeight: 500 }} data-testid="company-zone-now">
          {formatTime(now)}
        </Box>
        <Box component="span" sx={{ display: { xs: "none", sm: "inline" }, opacity: 0.7 }} data-testid="company-zone-offset">
          {offset}
        </Box>
      </Box>
    </Tooltip>
  );
}
