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
} as const satisfies Record<string, { default: string; values?: readonly string[]; secret?: boolean }>;

export type SettingKey = keyof typeof SettingDefinitions;
export const settingKeys = Object.keys(SettingDefinitions) as SettingKey[];
export const isSettingKey = (k: unknown): k is SettingKey => typeof k === "string" && Object.hasOwn(SettingDefinitions, k);

export type SettingView = { key: SettingKey; value: string; updatedAt?: string };

/** Whether a value is allowed for a key (free-text keys take any string within the size limit). */
export function isValidSettingValue(key: SettingKey, value: string): boolean {
  const def = SettingDefinitions[key] as { values?: readonly string[] };
  return def.values ? def.values.includes(value) : value.length <= Limits.settingValueMax;
}
