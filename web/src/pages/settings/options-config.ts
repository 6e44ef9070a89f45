import type { SettingKey } from "@charla/contracts";

/** Settings chosen from a list, in screen order; their values come from SettingDefinitions. */
export const selectSettings = [
  "userRating",
  "scheduleType",
  "call",
  "CheckMsgIsGroup",
  "sendGreetingAccepted",
  "sendMsgTransfTicket",
  "chatBotType",
] as const satisfies readonly SettingKey[];

/** Free-text credentials of the integrations, shown under their own heading. */
export const integrationSettings = [
  "ipixc",
  "tokenixc",
  "ipmkauth",
  "clientidmkauth",
  "clientsecretmkauth",
  "asaas",
] as const satisfies readonly SettingKey[];

/**
 * Platform settings (only the main company's value counts): the server lists them to super users
 * only, so the section shows when they are present.
 */
export const platformSettings = ["userCreation"] as const satisfies readonly SettingKey[];
