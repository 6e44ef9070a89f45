import type { CampaignStatus, CampaignView } from "@charla/contracts";

const HOUR_MS = 3_600_000;

/**
 * What the dialog lets change (secondary §4, mirrored from the server's rule): everything while the
 * campaign is a draft or is scheduled more than 1 hour ahead; only its message texts once cancelled;
 * nothing otherwise. A new campaign is all editable.
 */
export type DialogMode = "full" | "messages" | "readOnly";

export function dialogModeOf(campaign: Pick<CampaignView, "status" | "scheduledAt"> | null, now = Date.now()): DialogMode {
  if (!campaign || campaign.status === "INATIVA") return "full";
  if (campaign.status === "PROGRAMADA" && campaign.scheduledAt && Date.parse(campaign.scheduledAt) - now > HOUR_MS) {
    return "full";
  }
  return campaign.status === "CANCELADA" ? "messages" : "readOnly";
}

/** The server cancels a running campaign, or a scheduled one before it starts. */
export const canCancel = (status: CampaignStatus) => status === "EM_ANDAMENTO" || status === "PROGRAMADA";
export const canRestart = (status: CampaignStatus) => status === "CANCELADA";
/** A running campaign must be cancelled before it is deleted (ERR_CAMPAIGN_RUNNING). */
export const canDelete = (status: CampaignStatus) => status !== "EM_ANDAMENTO";
