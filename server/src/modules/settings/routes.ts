import {
  PLATFORM_COMPANY_ID,
  SettingDefinitions,
  SettingUpdateForm,
  isPlatformSetting,
  isSettingKey,
  isValidSettingValue,
  text,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scoped } from "../../db/scoped.js";
import { settings } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { listSettings } from "./queries.js";

const KeyParams = z.object({ key: text().max(60) });

export async function settingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/settings", { config: { permission: "settings.read" } }, (req) =>
    listSettings(scoped(req.ctx.db, req.ctx.companyId), {
      includeSecrets: req.ctx.user.profile === "admin" || req.ctx.user.super,
      includePlatform: req.ctx.user.super,
    }),
  );

  /** PUT /settings/{key} (admins): one upsert on (company, key); the value must be one the key allows. */
  r.put(
    "/settings/:key",
    { schema: { params: KeyParams, body: SettingUpdateForm }, config: { permission: "settings.write" } },
    async (req) => {
      const { key } = req.params;
      if (!isSettingKey(key)) throw new AppError("ERR_NO_SETTING_FOUND");
      const value = req.body.value;
      if (!isValidSettingValue(key, value)) throw new AppError("ERR_INVALID_SETTING_VALUE");
      const ctx = req.ctx;
      // a platform key (the sign-up switch) is the install's: super users only, kept on the main company
      const platform = isPlatformSetting(key);
      if (platform && !ctx.user.super) throw new AppError("ERR_NO_PERMISSION");
      const companyId = platform ? PLATFORM_COMPANY_ID : ctx.companyId;
      return withTransaction(ctx, async (tx, { publish }) => {
        const [row] = await tx
          .insert(settings)
          .values({ companyId, key, value })
          .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } })
          .returning();
        const view = { key, value: row.value, updatedAt: row.updatedAt.toISOString() };
        // secret values are not broadcast to the whole company
        const broadcast = { key, value: "secret" in SettingDefinitions[key] ? "" : row.value };
        if (platform) return view;
        await publish({
          type: "record.changed",
          companyId: ctx.companyId,
          audience: "company",
          area: "settings",
          change: { action: "update", setting: broadcast },
        });
        return view;
      });
    },
  );
}
