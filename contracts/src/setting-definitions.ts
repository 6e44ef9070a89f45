import { Limits } from "./limits.js";

// The settings' keys and values, in a module without zod: the web's shell reads them on every
// page; the update form is in settings.ts.

const onOff = ["enabled", "disabled"] as const;

/** Settings keys of core §3 with their defaults and allowed values; `secret` keys are shown to admins only. */
export const SettingDefinitions = {
  userRating: { default: "disabled", values: onOff },
  scheduleType: { default: "disabled", values: ["disabled", "queue", "company"] },
  call: { default: "enabled", values: onOff },
  CheckMsgIsGroup: { default: "enabled", values: onOff },
  sendGreetingAccepted: { default: "disabled", values: onOff },
  sendMsgTransfTicket: { default: "disabled", values: onOff },
  chatBotType: { default: "text", values: ["text", "button", "list", "keyword"] },
  ipixc: { default: "", secret: true },
  tokenixc: { default: "", secret: true },
  ipmkauth: { default: "", secret: true },
  clientidmkauth: { default: "", secret: true },
  clientsecretmkauth: { default: "", secret: true },
  asaas: { default: "", secret: true },
  campaignsEnabled: { default: "disabled", values: [...onOff, "true", "false"] },
  /**
   * Whether the public sign-up creates companies (core §2 signup; ERR_USER_CREATION_DISABLED when off).
   * Off until the operator turns it on. A `platform` key: only the main company's value counts, and
   * only super users read or change it.
   */
  userCreation: { default: "disabled", values: onOff, platform: true },
} as const satisfies Record<string, { default: string; values?: readonly string[]; secret?: boolean; platform?: boolean }>;

export type SettingKey = keyof typeof SettingDefinitions;
export const settingKeys = Object.keys(SettingDefinitions) as SettingKey[];
export const isSettingKey = (k: unknown): k is SettingKey => typeof k === "string" && Object.hasOwn(SettingDefinitions, k);

/** The company whose values of `platform` keys count for the whole install. */
export const PLATFORM_COMPANY_ID = 1;
/** Keys that belong to the whole install, not to one company (super users only). */
export const isPlatformSetting = (k: SettingKey): boolean => "platform" in SettingDefinitions[k];
/** Keys every company has (platform keys excluded). */
export const companySettingKeys = settingKeys.filter((k) => !isPlatformSetting(k));

export type SettingView = { key: SettingKey; value: string; updatedAt?: string };

/** Whether a value is allowed for a key (free-text keys take any string within the size limit). */
export function isValidSettingValue(key: SettingKey, value: string): boolean {
  const def = SettingDefinitions[key] as { values?: readonly string[] };
  return def.values ? def.values.includes(value) : value.length <= Limits.settingValueMax;
}
