import { resumeWaitingCampaigns, startDueCampaigns } from "../modules/campaigns/lifecycle.js";
import { sendDueShippings } from "../modules/campaigns/sender.js";
import type { Sweep } from "./sweep.js";

/** Campaigns (behaviours: Campaigns): starts at scheduledAt, resumes when a session is back, sends. */
export const campaignStarts: Sweep = { name: "campaign-starts", batch: startDueCampaigns };
export const campaignResumes: Sweep = { name: "campaign-resumes", batch: resumeWaitingCampaigns };
export const campaignSends: Sweep = { name: "campaign-sends", batch: sendDueShippings };
