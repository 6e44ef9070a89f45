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

const two = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as a datetime-local input's value (the browser's local time), "" for none. */
export function toLocalInput(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return `${day}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * A datetime-local value as ISO with the browser's offset ("2026-11-23T09:30:00-03:00"): the server
 * stores the instant the user meant, whatever its own time zone. "" (cleared) stays "" (a draft).
 */
export function fromLocalInput(value: string): string {
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? "+" : "-";
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${toLocalInput(date.toISOString())}:${two(date.getSeconds())}${zone}`;
}
