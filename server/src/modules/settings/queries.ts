import { SettingDefinitions, type SettingKey, type SettingView, settingKeys } from "@charla/contracts";
import type { Scoped } from "../../db/scoped.js";

/** Every key with its stored value or its default; secret keys only when asked for. */
export async function listSettings(q: Scoped, opts: { includeSecrets: boolean }): Promise<SettingView[]> {
  const rows = await q.db.select().from(q.settings.table).where(q.settings.where());
  const stored = new Map(rows.map((r) => [r.key, r]));
  return settingKeys
    .filter((k) => opts.includeSecrets || !("secret" in SettingDefinitions[k]))
    .map((key) => {
      const row = stored.get(key);
      return { key, value: row?.value ?? SettingDefinitions[key].default, updatedAt: row?.updatedAt.toISOString() };
    });
}

export async function settingValue(q: Scoped, key: SettingKey): Promise<string> {
  const rows = await q.db.select().from(q.settings.table).where(q.settings.where());
  return rows.find((r) => r.key === key)?.value ?? SettingDefinitions[key].default;
}
