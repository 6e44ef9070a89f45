import type { CampaignEvent } from "@charla/contracts";
import type { DomainEvent } from "../../events/index.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/** `company-{id}-campaign` to the users campaigns are for (never agents), read through `q`. */
export async function campaignChanged(q: Scoped, change: CampaignEvent): Promise<DomainEvent<"record.changed">> {
  const audience = await campaignAudience(q);
  return { type: "record.changed", companyId: q.companyId, audience, area: "campaign", change };
}
