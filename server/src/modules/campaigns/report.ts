import type { CampaignReport } from "@charla/contracts";
import { and, count, eq, sql } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { campaignShippings, contactListItems } from "../../db/schema/index.js";
import { found } from "../../lib/app-error.js";
import { findCampaignView } from "./queries.js";

/** GET /campaigns/{id}/report: the campaign's counts (behaviours: Campaigns, Report). */
export async function campaignReport(q: Scoped, id: number): Promise<CampaignReport> {
  const campaign = found(await findCampaignView(q, id), "ERR_NO_CAMPAIGN_FOUND");
  const [[n], valid] = await Promise.all([
    q.db
      .select({
        total: count(),
        delivered: sql<number>`count(*) filter (where ${campaignShippings.status} = 'delivered')`,
        requested: sql<number>`count(${campaignShippings.confirmationRequestedAt})`,
        confirmed: sql<number>`count(${campaignShippings.confirmedAt})`,
        failed: sql<number>`count(*) filter (where ${campaignShippings.status} = 'failed')`,
      })
      .from(campaignShippings)
      .where(q.campaignShippings.where(eq(campaignShippings.campaignId, id))),
    campaign.contactListId && !campaign.tagListId
      ? q.db
          .select({ n: count() })
          .from(contactListItems)
          .where(
            q.contactListItems.where(
              and(eq(contactListItems.contactListId, campaign.contactListId), eq(contactListItems.isWhatsappValid, true)),
            ),
          )
      : null,
  ]);
  const total = toCount(n.total);
  const delivered = toCount(n.delivered);
  const failed = toCount(n.failed);
  return {
    campaign,
    validContacts: valid ? toCount(valid[0].n) : total,
    total,
    delivered,
    confirmationRequested: toCount(n.requested),
    confirmed: toCount(n.confirmed),
    failed,
    progress: total > 0 ? Math.floor(((delivered + failed) * 100) / total) : campaign.status === "FINALIZADA" ? 100 : 0,
  };
}
