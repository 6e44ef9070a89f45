import { createHash } from "node:crypto";
import { CAMPAIGN_VARIANTS, type CampaignSettings, fillCampaignVariables } from "@charla/contracts";
import type { campaignShippings } from "../../db/schema/index.js";
import type { CampaignRow } from "./queries.js";

type Shipping = typeof campaignShippings.$inferSelect;
const digest = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * The WhatsApp message id of one part of a shipping's send ("3EB0" and 36 hex digits, as WhatsApp Web
 * makes them), the same every time the send is made: a send repeated after a crash carries the ids of
 * the first, and WhatsApp delivers a message id once.
 */
export const partMessageId = (sendKey: string, part: string) => `3EB0${digest(`${sendKey}:${part}`).slice(0, 36).toUpperCase()}`;

/**
 * One of the non-empty variants, filled with the contact's values and the custom variables (behaviours:
 * Campaigns). The variant is drawn from the shipping's key, so a repeated send carries the same text.
 */
export function composeText(
  c: CampaignRow,
  sh: Pick<Shipping, "sendKey" | "name" | "number" | "email">,
  settings: CampaignSettings,
  kind: "message" | "confirmationMessage",
): string {
  const variants = CAMPAIGN_VARIANTS.map((i) => c[`${kind}${i}`]).filter((v) => v.trim());
  if (variants.length === 0) return "";
  const pick = Number.parseInt(digest(`${sh.sendKey}:${kind}`).slice(0, 8), 16) % variants.length;
  return fillCampaignVariables(variants[pick], sh, settings.variables);
}
