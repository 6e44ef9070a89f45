import {
  type CampaignReport,
  type CampaignSettings,
  type CampaignsPage,
  CampaignForm,
  CampaignsQuery,
  IdParams,
} from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { replyWithCompanyFile } from "../../lib/stored-file-reply.js";
import { storeAttachment } from "../../plugins/upload.js";
import { findCampaignView, pageCampaigns } from "./queries.js";
import { campaignReport } from "./report.js";
import {
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  removeCampaignMedia,
  restartCampaign,
  setCampaignMedia,
  updateCampaign,
} from "./service.js";
import { CampaignSettingsWrite, readCampaignSettings, saveNamedCampaignSettings } from "./settings.js";

/** Campaigns, their report and settings (secondary §7), behind campaigns.use (staff, plan flag useCampaigns). */
export async function campaignsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "campaigns.use" } as const;

  r.get(
    "/campaigns",
    { schema: { querystring: CampaignsQuery }, config: use },
    (req): Promise<CampaignsPage> => pageCampaigns(scopedFor(req), req.query.searchParam, req.query.pageNumber),
  );
  r.get("/campaigns/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await findCampaignView(scopedFor(req), req.params.id), "ERR_NO_CAMPAIGN_FOUND"),
  );
  r.get(
    "/campaigns/:id/report",
    { schema: { params: IdParams }, config: use },
    (req): Promise<CampaignReport> => campaignReport(scopedFor(req), req.params.id),
  );
  r.post("/campaigns", { schema: { body: CampaignForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createCampaign(req.ctx, req.body)),
  );
  r.put("/campaigns/:id", { schema: { params: IdParams, body: CampaignForm }, config: use }, (req) =>
    updateCampaign(req.ctx, req.params.id, req.body),
  );
  r.delete("/campaigns/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteCampaign(req.ctx, req.params.id);
    return reply.status(204).send();
  });
  r.post("/campaigns/:id/cancel", { schema: { params: IdParams }, config: use }, (req) => cancelCampaign(req.ctx, req.params.id));
  r.post("/campaigns/:id/restart", { schema: { params: IdParams }, config: use }, (req) =>
    restartCampaign(req.ctx, req.params.id),
  );

  /** Multipart `file`: the campaign's attachment, sent with the text as its caption. */
  r.post("/campaigns/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    setCampaignMedia(req.ctx, req.params.id, (prefix) => storeAttachment(req, prefix)),
  );
  r.delete("/campaigns/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    removeCampaignMedia(req.ctx, req.params.id),
  );
  /** The campaign's file, to its own company's campaign users only. */
  r.get("/campaigns/:id/media", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const row = found(await scopedFor(req).campaigns.findById(req.params.id), "ERR_NO_CAMPAIGN_FOUND");
    return replyWithCompanyFile(req, reply, { path: row.mediaPath, name: row.mediaName }, "ERR_NOT_FOUND");
  });

  r.get(
    "/campaign-settings",
    { config: use },
    (req): Promise<CampaignSettings> => readCampaignSettings(req.ctx.db, req.ctx.companyId),
  );
  r.post(
    "/campaign-settings",
    { schema: { body: CampaignSettingsWrite }, config: use },
    (req): Promise<CampaignSettings> => saveNamedCampaignSettings(req.ctx.db, req.ctx.companyId, req.body),
  );
}
