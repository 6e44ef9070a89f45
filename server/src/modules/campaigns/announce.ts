import { type CampaignEvent, Events } from "@charla/contracts";
import type { Realtime } from "../../realtime/realtime.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignAudience } from "../../policies/campaigns.js";

/** `company-{id}-campaign` to the users campaigns are for (never agents); an emitter for afterCommit. */
export async function campaignAnnouncer(realtime: Realtime, q: Scoped) {
  const to = realtime.toUsers(q.companyId, await campaignAudience(q));
  return (event: CampaignEvent) => () => to.emit(Events.campaign(q.companyId), event);
}
