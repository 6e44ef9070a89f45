import { type CampaignStatus, type CampaignView, Limits } from "@charla/contracts";
import { and, asc, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { campaigns, contactLists, whatsapps } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";

export type CampaignRow = typeof campaigns.$inferSelect;
type Named = { id: number; name: string } | null;

export function campaignView(c: CampaignRow, whatsapp: Named = null, contactList: Named = null): CampaignView {
  return {
    id: c.id,
    name: c.name,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    status: c.status as CampaignStatus,
    confirmation: c.confirmation,
    scheduledAt: c.scheduledAt?.toISOString() ?? null,
    completedAt: c.completedAt?.toISOString() ?? null,
    whatsappId: c.whatsappId,
    contactListId: c.contactListId,
    tagListId: c.tagListId,
    fileListId: c.fileListId,
    mediaName: c.mediaPath ? c.mediaName : null,
    mediaUrl: c.mediaPath ? `/api/v1/campaigns/${c.id}/media` : null,
    whatsapp,
    contactList,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** Campaigns with the names of their connection and list (both of the campaign's own company). */
async function views(q: Scoped, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const query = q.db
    .select({ c: campaigns, w: { id: whatsapps.id, name: whatsapps.name }, l: { id: contactLists.id, name: contactLists.name } })
    .from(campaigns)
    .leftJoin(whatsapps, and(eq(whatsapps.companyId, campaigns.companyId), eq(whatsapps.id, campaigns.whatsappId)))
    .leftJoin(contactLists, and(eq(contactLists.companyId, campaigns.companyId), eq(contactLists.id, campaigns.contactListId)))
    .where(q.campaigns.where(where))
    .orderBy(desc(campaigns.createdAt), asc(campaigns.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return rows.map((r) => campaignView(r.c, r.w, r.l));
}

export async function findCampaignView(q: Scoped, id: number): Promise<CampaignView | null> {
  const [view] = await views(q, eq(campaigns.id, id));
  return view ?? null;
}

/** GET /campaigns: newest first, 20 a page, searched by name. */
export async function pageCampaigns(q: Scoped, search: string, pageNumber: number) {
  const where = search ? ilike(campaigns.name, `%${escapeLike(search)}%`) : undefined;
  const size = Limits.pageSize;
  const [records, [{ n }]] = await Promise.all([
    views(q, where, { limit: size + 1, offset: (pageNumber - 1) * size }),
    q.db.select({ n: count() }).from(campaigns).where(q.campaigns.where(where)),
  ]);
  return { records: records.slice(0, size), hasMore: records.length > size, count: toCount(n) };
}
