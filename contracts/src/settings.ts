import { z } from "zod";
import { text } from "./common.js";
import { Limits } from "./limits.js";

export const SettingUpdateForm = z.object({
  value: text().max(Limits.settingValueMax),
});
export type SettingUpdateForm = z.infer<typeof SettingUpdateForm>;
