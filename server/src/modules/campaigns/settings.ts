import { type CampaignSettings, CampaignSettingsForm, DEFAULT_CAMPAIGN_SETTINGS } from "@charla/contracts";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { campaignSettings } from "../../db/schema/index.js";

const KEYS = ["messageInterval", "longerIntervalAfter", "greaterInterval", "variables"] as const;

/** The company's campaign settings (secondary §3: one record per key, JSON values), defaults for what is unset. */
export async function readCampaignSettings(db: Db | Tx, companyId: number): Promise<CampaignSettings> {
  const rows = await db.select().from(campaignSettings).where(eq(campaignSettings.companyId, companyId));
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  // a value that no longer fits the form (an older version's) falls back to its default
  const parsed = CampaignSettingsForm.safeParse({ ...DEFAULT_CAMPAIGN_SETTINGS, ...stored });
  return parsed.success ? parsed.data : DEFAULT_CAMPAIGN_SETTINGS;
}

/** Saves every key at once (one statement: a half-saved set is never seen). */
export async function saveCampaignSettings(db: Db, companyId: number, settings: CampaignSettings): Promise<void> {
  await db
    .insert(campaignSettings)
    .values(KEYS.map((key) => ({ companyId, key, value: settings[key] })))
    .onConflictDoUpdate({
      target: [campaignSettings.companyId, campaignSettings.key],
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
    });
}
