import {
  isPlatformSetting,
  PLATFORM_COMPANY_ID,
  SettingDefinitions,
  type SettingKey,
  type SettingView,
  settingKeys,
} from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { settings } from "../../db/schema/index.js";

/**
 * Every key with its stored value or its default; secret keys only when asked for, platform keys
 * (super users) only when asked for, with the main company's value whichever company asks.
 */
export async function listSettings(
  q: Scoped,
  opts: { includeSecrets: boolean; includePlatform?: boolean },
): Promise<SettingView[]> {
  const rows = await q.db.select().from(q.settings.table).where(q.settings.where());
  const stored = new Map(rows.map((r) => [r.key, r]));
  if (opts.includePlatform && q.companyId !== PLATFORM_COMPANY_ID) {
    const main = await q.db.select().from(settings).where(eq(settings.companyId, PLATFORM_COMPANY_ID));
    for (const r of main) if (isSettingKeyOfPlatform(r.key)) stored.set(r.key, r);
  }
  return settingKeys
    .filter((k) => opts.includeSecrets || !("secret" in SettingDefinitions[k]))
    .filter((k) => opts.includePlatform || !isPlatformSetting(k))
    .map((key) => {
      const row = stored.get(key);
      return { key, value: row?.value ?? SettingDefinitions[key].default, updatedAt: row?.updatedAt.toISOString() };
    });
}

const isSettingKeyOfPlatform = (k: string) => Object.hasOwn(SettingDefinitions, k) && isPlatformSetting(k as SettingKey);

export async function settingValue(q: Scoped, key: SettingKey): Promise<string> {
  const rows = await q.db.select().from(q.settings.table).where(q.settings.where());
  return rows.find((r) => r.key === key)?.value ?? SettingDefinitions[key].default;
}

/** A platform key's value: the main company's, else its default. */
export async function platformSettingValue(db: Db | Tx, key: SettingKey): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, PLATFORM_COMPANY_ID), eq(settings.key, key)));
  return row?.value ?? SettingDefinitions[key].default;
}
