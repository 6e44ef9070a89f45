import { type CampaignSettings, CampaignSettingsForm, DEFAULT_CAMPAIGN_SETTINGS, V } from "@charla/contracts";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../db/client.js";
import { campaignSettings } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";

const KEYS = ["messageInterval", "longerIntervalAfter", "greaterInterval", "variables"] as const;
type Key = (typeof KEYS)[number];

const Named = z
  .strictObject(Object.fromEntries(KEYS.map((k) => [k, z.unknown().optional()])) as Record<Key, z.ZodOptional<z.ZodUnknown>>)
  .refine((body) => KEYS.some((k) => body[k] !== undefined), V.required);

/**
 * The body of POST /campaign-settings (secondary §7, "a settings object"): the settings the request
 * names, as an object or wrapped as `{settings: {…}}` the way the reference client posts them. Any
 * other key is refused, never dropped: a body whose shape was not understood must not save defaults.
 * Values are checked against CampaignSettingsForm when merged (saveNamedCampaignSettings).
 */
export const CampaignSettingsWrite = z.preprocess(
  (body) =>
    body && typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 1 && "settings" in body
      ? body.settings
      : body,
  Named,
);

/** The company's campaign settings (secondary §3: one record per key, JSON values), defaults for what is unset. */
export async function readCampaignSettings(db: Db | Tx, companyId: number): Promise<CampaignSettings> {
  const rows = await db.select().from(campaignSettings).where(eq(campaignSettings.companyId, companyId));
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  // a value that no longer fits the form (an older version's) falls back to its default
  const parsed = CampaignSettingsForm.safeParse({ ...DEFAULT_CAMPAIGN_SETTINGS, ...stored });
  return parsed.success ? parsed.data : DEFAULT_CAMPAIGN_SETTINGS;
}

/**
 * Saves the keys a request named and only those: what it left out keeps its stored value. Each is
 * checked against the form together with the stored rest (ERR_VALIDATION with its body path).
 */
export async function saveNamedCampaignSettings(
  db: Db,
  companyId: number,
  named: Partial<Record<Key, unknown>>,
): Promise<CampaignSettings> {
  const keys = KEYS.filter((k) => named[k] !== undefined);
  const parsed = CampaignSettingsForm.safeParse({ ...(await readCampaignSettings(db, companyId)), ...named });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: ["body", ...i.path].join("."), message: i.message }));
    throw new AppError("ERR_VALIDATION", { issues });
  }
  await saveCampaignSettings(db, companyId, parsed.data, keys);
  return readCampaignSettings(db, companyId);
}

/** Saves the given keys at once (one statement: a half-saved set is never seen). */
async function saveCampaignSettings(db: Db, companyId: number, settings: CampaignSettings, keys: readonly Key[]): Promise<void> {
  await db
    .insert(campaignSettings)
    .values(keys.map((key) => ({ companyId, key, value: settings[key] })))
    .onConflictDoUpdate({
      target: [campaignSettings.companyId, campaignSettings.key],
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
    });
}
