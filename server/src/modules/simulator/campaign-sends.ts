import { Ack, normalizeNumber, type SimulatorThreadItem } from "@charla/contracts";
import { and, eq, isNull, or } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { campaignShippings, campaigns } from "../../db/schema/index.js";

type Connection = { id: number; isDefault: boolean };

const mediaKind = (mimetype: string | null) => {
  const kind = (mimetype ?? "").split("/")[0];
  return kind === "image" || kind === "audio" || kind === "video" ? kind : "application";
};

/**
 * Campaign sends leave no message in a ticket (WhatsApp does not echo a session's own sends, and a
 * campaign must not open a ticket per contact), yet the customer's phone shows them: the simulated
 * phone reads them from the campaign's shippings (issue 26). Their ids are negative, so they never
 * meet a message's; their ack is the one the report counts on (delivered).
 */
export async function campaignSends(q: Scoped, wa: Connection, number: string): Promise<SimulatorThreadItem[]> {
  const digits = normalizeNumber(number);
  // a campaign without a connection of its own sends through the company's default one
  const through = wa.isDefault
    ? or(eq(campaigns.whatsappId, wa.id), isNull(campaigns.whatsappId))
    : eq(campaigns.whatsappId, wa.id);
  const rows = await q.db
    .select({
      sh: campaignShippings,
      campaignId: campaigns.id,
      mediaName: campaigns.mediaName,
      mediaPath: campaigns.mediaPath,
      mimetype: campaigns.mediaMimetype,
    })
    .from(campaignShippings)
    .innerJoin(
      campaigns,
      and(eq(campaigns.companyId, campaignShippings.companyId), eq(campaigns.id, campaignShippings.campaignId)),
    )
    .where(q.campaignShippings.where(through, or(eq(campaignShippings.number, digits), eq(campaignShippings.address, digits))));
  const items: SimulatorThreadItem[] = [];
  for (const { sh, mediaName, mediaPath, mimetype, campaignId } of rows) {
    const base = { side: "agent" as const, ack: Ack.delivered, ackError: null, isDeleted: false };
    if (sh.confirmationRequestedAt && sh.confirmationMessage !== null)
      items.push({
        ...base,
        id: -(sh.id * 2),
        body: sh.confirmationMessage,
        mediaType: "chat",
        mediaUrl: null,
        mediaName: null,
        createdAt: sh.confirmationRequestedAt.toISOString(),
      });
    if (sh.deliveredAt && sh.message !== null)
      items.push({
        ...base,
        id: -(sh.id * 2 + 1),
        body: sh.message,
        mediaType: mediaPath ? mediaKind(mimetype) : "chat",
        mediaUrl: mediaPath ? `/api/v1/campaigns/${campaignId}/media` : null,
        mediaName: mediaPath ? mediaName : null,
        createdAt: sh.deliveredAt.toISOString(),
      });
  }
  return items;
}
