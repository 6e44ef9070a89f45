import type { CampaignView } from "@charla/contracts";
import ReportIcon from "@mui/icons-material/AssessmentOutlined";
import CancelIcon from "@mui/icons-material/StopCircleOutlined";
import RestartIcon from "@mui/icons-material/PlayCircleOutlined";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { campaignCollection } from "../../api/campaigns";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { formatDateTime } from "../../lib/company-time";
import { CampaignModal } from "./CampaignModal";
import { CampaignStatusChip } from "./CampaignStatusChip";
import { canCancel, canDelete, canRestart } from "./campaign-rules";
import { useCampaignTransitions } from "./use-campaign-transitions";
import { useConnectionLabel } from "./use-connection-label";

const reportPath = (campaign: { id: number }) => `/campaign/${campaign.id}/report`;

function RowButton(props: { label: string; icon: ReactNode; onClick: () => void; disabled?: boolean; testId: string }) {
  return (
    <Tooltip title={props.label}>
      <span>
        <IconButton
          size="small"
          aria-label={props.label}
          onClick={props.onClick}
          disabled={props.disabled}
          data-testid={props.testId}
        >
          {props.icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** DD/MM/YYYY HH:mm on one line (core §1), a dash for none. */
function DateTime({ value, testId }: { value: string | null; testId: string }) {
  return (
    <span style={{ whiteSpace: "nowrap" }} data-testid={testId}>
      {formatDateTime(value) || "–"}
    </span>
  );
}

/**
 * secondary §2 Campaigns: search, add, edit (read-only once it may not change, secondary §4),
 * confirmed delete (not while it runs), cancel and restart when the status allows them, and the
 * report; live (the sender tells every status it moves to).
 */
export default function CampaignsPage() {
  const { t } = useTranslation("campaigns");
  const connectionLabel = useConnectionLabel();
  const navigate = useNavigate();
  const remove = campaignCollection.useDelete();
  const transitions = useCampaignTransitions();
  campaignCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);

  const rowButtons = (campaign: CampaignView) => (
    <>
      <RowButton
        label={t("actions.report")}
        icon={<ReportIcon fontSize="small" />}
        onClick={() => navigate(reportPath(campaign))}
        testId="campaign-report"
      />
      {canCancel(campaign.status) && (
        <RowButton
          label={t("actions.cancelCampaign")}
          icon={<CancelIcon fontSize="small" />}
          onClick={() => transitions.cancel(campaign)}
          testId="campaign-cancel"
        />
      )}
      {canRestart(campaign.status) && (
        <RowButton
          label={t("actions.restart")}
          icon={<RestartIcon fontSize="small" />}
          onClick={() => transitions.restart(campaign)}
          disabled={transitions.busy}
          testId="campaign-restart"
        />
      )}
    </>
  );

  return (
    <ListPage<CampaignView>
      title={t("title")}
      testId="campaigns"
      useRows={campaignCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="campaign"
      rowData={(campaign) => ({ "data-campaign-id": campaign.id, "data-status": campaign.status })}
      onEdit={(campaign) => setEditing({ id: campaign.id })}
      remove={{
        allowed: (campaign) => canDelete(campaign.status),
        title: (campaign) => t("confirmDelete.title", { name: campaign.name }),
        message: t("confirmDelete.message"),
        run: (campaign) => remove.mutateAsync(campaign.id),
        done: t("toasts.deleted"),
      }}
      rowExtra={rowButtons}
      columns={[
        {
          label: t("columns.name"),
          cell: (c) => (
            <>
              <Typography sx={{ fontWeight: 500 }}>{c.name}</Typography>
              {/* phones: the status column is hidden, so it goes under the name */}
              <Box sx={{ ...narrowOnly, mt: 0.5 }}>
                <CampaignStatusChip status={c.status} testId="campaign-status-narrow" />
              </Box>
            </>
          ),
        },
        { label: t("columns.status"), wide: true, cell: (c) => <CampaignStatusChip status={c.status} /> },
        { label: t("columns.contactList"), wide: true, cell: (c) => c.contactList?.name ?? "–" },
        { label: t("columns.connection"), wide: true, cell: (c) => connectionLabel(c) },
        {
          label: t("columns.scheduledAt"),
          wide: true,
          cell: (c) => <DateTime value={c.scheduledAt} testId="campaign-scheduled-at" />,
        },
        {
          label: t("columns.completedAt"),
          wide: true,
          cell: (c) => <DateTime value={c.completedAt} testId="campaign-completed-at" />,
        },
      ]}
    >
      {transitions.dialog}
      {editing && <CampaignModal campaignId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
