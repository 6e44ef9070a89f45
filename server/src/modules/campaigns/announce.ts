import type { CampaignEvent } from "@charla/contracts";
import type { EventBus } from "../../events/index.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/** `company-{id}-campaign` to the users campaigns are for (never agents); the returned function publishes, for afterCommit. */
export async function campaignAnnouncer(events: EventBus, q: Scoped) {
  const audience = await campaignAudience(q);
  return (change: CampaignEvent) => () =>
    events.publish({ type: "record.changed", companyId: q.companyId, audience, area: "campaign", change });
}
