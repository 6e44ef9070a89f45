import type { CampaignView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useParams } from "react-router";
import { useCampaignReport } from "../../api/campaigns";
import { toastError } from "../../api/errors";
import { SectionLoader } from "../../components/FullPageLoader";
import { PageContainer } from "../../components/PageContainer";
import { formatDateTime } from "../../lib/company-time";
import { CampaignStatusChip } from "./CampaignStatusChip";
import { ReportCounters, ReportProgress } from "./ReportCounters";
import { useConnectionLabel } from "./use-connection-label";
import { useLiveReport } from "./use-live-report";

const CAMPAIGNS_PATH = "/campaigns";

/** secondary §2 /campaign/{campaignId}/report; another campaign's report is another component (its timers). */
export default function CampaignReportPage() {
  const campaignId = Number(useParams().campaignId);
  if (!Number.isInteger(campaignId) || campaignId <= 0) return <Navigate to={CAMPAIGNS_PATH} replace />;
  return <Report key={campaignId} campaignId={campaignId} />;
}

function Detail({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, wordBreak: "break-word" }} data-testid={testId}>
        {children}
      </Box>
    </Box>
  );
}

/** What the campaign is: its connection, list, status and dates. */
function CampaignSummary({ campaign }: { campaign: CampaignView }) {
  const { t } = useTranslation("campaigns");
  const connectionLabel = useConnectionLabel();
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(5, 1fr)" } }}
    >
      <Detail label={t("columns.connection")} testId="campaign-report-connection">
        {connectionLabel(campaign)}
      </Detail>
      <Detail label={t("columns.contactList")} testId="campaign-report-list">
        {campaign.contactList?.name ?? "–"}
      </Detail>
      <Detail label={t("columns.status")} testId="campaign-report-status">
        <CampaignStatusChip status={campaign.status} />
      </Detail>
      <Detail label={t("columns.scheduledAt")} testId="campaign-report-scheduled">
        {formatDateTime(campaign.scheduledAt) || "–"}
      </Detail>
      <Detail label={t("columns.completedAt")} testId="campaign-report-completed">
        {formatDateTime(campaign.completedAt) || "–"}
      </Detail>
    </Paper>
  );
}

/** One campaign's report, live (use-live-report); a campaign that cannot be read sends the user back to the list. */
function Report({ campaignId }: { campaignId: number }) {
  const { t } = useTranslation("campaigns");
  const navigate = useNavigate();
  const report = useCampaignReport(campaignId);
  const backToList = () => navigate(CAMPAIGNS_PATH);
  useLiveReport(campaignId, () => navigate(CAMPAIGNS_PATH, { replace: true }));

  useEffect(() => {
    if (!report.error) return;
    toastError(report.error);
    navigate(CAMPAIGNS_PATH, { replace: true });
  }, [report.error, navigate]);

  const campaign = report.data?.campaign;
  return (
    <PageContainer
      title={campaign ? t("report.title", { name: campaign.name }) : t("report.titleLoading")}
      back={{ label: t("report.back"), onClick: backToList, testId: "campaign-report-back" }}
    >
      {report.data && campaign ? (
        <>
          <CampaignSummary campaign={campaign} />
          <ReportCounters report={report.data} />
          <ReportProgress report={report.data} />
        </>
      ) : (
        <SectionLoader />
      )}
    </PageContainer>
  );
}
