import type { CampaignReport } from "@charla/contracts";
import CheckIcon from "@mui/icons-material/CheckCircleOutlined";
import ContactsIcon from "@mui/icons-material/ContactPhoneOutlined";
import FailedIcon from "@mui/icons-material/ErrorOutlineOutlined";
import RequestIcon from "@mui/icons-material/HelpOutlineOutlined";
import DeliveredIcon from "@mui/icons-material/MarkChatReadOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../i18n";

type CountName = "validContacts" | "delivered" | "confirmationRequested" | "confirmed" | "failed";

const counters: { name: CountName; icon: ReactNode; color: string }[] = [
  { name: "validContacts", icon: <ContactsIcon fontSize="large" />, color: "primary.main" },
  { name: "delivered", icon: <DeliveredIcon fontSize="large" />, color: "success.main" },
  { name: "confirmationRequested", icon: <RequestIcon fontSize="large" />, color: "info.main" },
  { name: "confirmed", icon: <CheckIcon fontSize="large" />, color: "success.main" },
  { name: "failed", icon: <FailedIcon fontSize="large" />, color: "error.main" },
];

/** behaviours: Campaigns, Report: valid contacts, delivered, confirmation requested, confirmed, failed. */
export function ReportCounters({ report }: { report: CampaignReport }) {
  const { t } = useTranslation("campaigns");
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(5, 1fr)" } }}>
      {counters.map(({ name, icon, color }) => (
        <Card key={name} variant="outlined" data-testid={`campaign-report-${name}`}>
          <CardContent sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
            <Box sx={{ color, display: "flex" }}>{icon}</Box>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" color="text.secondary">
                {t(`report.counters.${name}`)}
              </Typography>
              <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid={`campaign-report-${name}-value`}>
                {report[name].toLocaleString(currentLanguage())}
              </Typography>
            </Box>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

/** Delivered and failed over the campaign's audience, 0–100. */
export function ReportProgress({ report }: { report: CampaignReport }) {
  const { t } = useTranslation("campaigns");
  const done = report.delivered + report.failed;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: "flex", flexDirection: "column", gap: 1 }}>
      <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t("report.progress")}
        </Typography>
        <Typography variant="h6" component="p" data-testid="campaign-report-percent">
          {`${report.progress} %`}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={report.progress}
        aria-label={t("report.progress")}
        sx={{ height: 10, borderRadius: 5 }}
        data-testid="campaign-report-progress"
        data-value={report.progress}
      />
      <Typography variant="body2" color="text.secondary">
        {t("report.processed", { done, total: report.total })}
      </Typography>
    </Paper>
  );
}
