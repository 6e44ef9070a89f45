import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { campaignShippings, campaigns } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { campaignsAllowed } from "../../jobs/eligible.js";
import type { CampaignRow } from "./queries.js";
import { announceCampaign } from "./sender.js";
import { readCampaignSettings } from "./settings.js";
import { startCampaign } from "./start.js";

/** A start writes a shipping per contact: few campaigns per transaction keep it short. */
const STARTS_PER_BATCH = 5;

/** PROGRAMADA campaigns whose time has come start (one node each: `FOR UPDATE SKIP LOCKED`). */
export async function startDueCampaigns(s: Services, now: Date, _limit: number): Promise<number> {
  const started = await withTransaction(s.db, async (tx) => {
    const due = await tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.status, "PROGRAMADA"), lte(campaigns.scheduledAt, now), campaignsAllowed(now)))
      .orderBy(campaigns.scheduledAt)
      .limit(STARTS_PER_BATCH)
      .for("update", { skipLocked: true });
    const rows: CampaignRow[] = [];
    for (const c of due) rows.push(await startCampaign(tx, c, await readCampaignSettings(tx, c.companyId), now));
    return rows;
  });
  for (const c of started) await announceCampaign(s, c.companyId, c.id);
  return started.length === STARTS_PER_BATCH ? _limit : started.length;
}

/**
 * Moves the planned times still ahead of a campaign that waited (`pausedAt`) by how long it waited, and
 * lets it go on: its sends keep their intervals instead of leaving all at once.
 */
export async function resumeCampaign(tx: Tx, c: CampaignRow, now: Date): Promise<void> {
  if (c.pausedAt) {
    const waited = Math.max(0, now.getTime() - c.pausedAt.getTime());
    await tx
      .update(campaignShippings)
      .set({ plannedAt: sql`${campaignShippings.plannedAt} + make_interval(secs => ${waited / 1000})` })
      .where(and(eq(campaignShippings.campaignId, c.id), eq(campaignShippings.status, "pending")));
  }
  await tx
    .update(campaigns)
    .set({ pausedAt: null, updatedAt: now })
    .where(and(eq(campaigns.companyId, c.companyId), eq(campaigns.id, c.id)));
}

/** Running campaigns that waited for their session go on once it is connected again. */
export async function resumeWaitingCampaigns(s: Services, now: Date, limit: number): Promise<number> {
  const resumed = await withTransaction(s.db, async (tx) => {
    const waiting = await tx
      .select()
      .from(campaigns)
      .where(
        and(
          eq(campaigns.status, "EM_ANDAMENTO"),
          isNotNull(campaigns.pausedAt),
          // spelled out: inside a one-table select Drizzle would leave these columns unqualified
          sql`exists (select 1 from whatsapps w where w.company_id = campaigns.company_id and w.status = 'CONNECTED'
            and (w.id = campaigns.whatsapp_id or (campaigns.whatsapp_id is null and w.is_default)))`,
        ),
      )
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const c of waiting) await resumeCampaign(tx, c, now);
    return waiting;
  });
  for (const c of resumed) await announceCampaign(s, c.companyId, c.id);
  return resumed.length;
}
