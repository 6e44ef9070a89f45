import { CAMPAIGN_MESSAGE_FIELDS, type CampaignForm, type CampaignView, storableText } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { Publish } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { campaignChanged } from "./announce.js";
import { resumeCampaign } from "./lifecycle.js";
import { type CampaignRow, findCampaignView } from "./queries.js";
import { readCampaignSettings } from "./settings.js";
import { startCampaign } from "./start.js";

type Input = z.output<typeof CampaignForm>;
const HOUR_MS = 3_600_000;

/** The dialog's choices must be the company's own: another company's id is not found. */
async function checkChoices(q: Scoped, f: Input) {
  if (f.whatsappId) {
    const [w] = await q.db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, q.companyId), eq(whatsapps.id, f.whatsappId)));
    if (!w) throw new AppError("ERR_NO_WAPP_FOUND");
  }
  if (f.contactListId) found(await q.contactLists.findById(f.contactListId), "ERR_NO_CONTACT_LIST_FOUND");
  if (f.tagListId) found(await q.tags.findById(f.tagListId), "ERR_NO_TAG_FOUND");
  if (f.fileListId) found(await q.fileLists.findById(f.fileListId), "ERR_NO_FILE_LIST_FOUND");
}

const columnsOf = (f: Input) => ({
  ...f,
  scheduledAt: f.scheduledAt ? new Date(f.scheduledAt) : null,
  // behaviours: without scheduledAt a campaign is a draft; with it, it starts then
  status: f.scheduledAt ? "PROGRAMADA" : "INATIVA",
});

/** secondary §4: the whole dialog only while INATIVA, or PROGRAMADA more than 1 hour ahead. */
export function editable(c: Pick<CampaignRow, "status" | "scheduledAt">, now = new Date()): boolean {
  if (c.status === "INATIVA") return true;
  return c.status === "PROGRAMADA" && !!c.scheduledAt && c.scheduledAt.getTime() - now.getTime() > HOUR_MS;
}

/** The campaign as it now is, told to its users once committed. */
async function viewAndTell(q: Scoped, publish: Publish, id: number, action: "create" | "update"): Promise<CampaignView> {
  const view = found(await findCampaignView(q, id), "ERR_NO_CAMPAIGN_FOUND");
  await publish(await campaignChanged(q, { action, record: view }));
  return view;
}

export function createCampaign(ctx: RequestCtx, f: Input): Promise<CampaignView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    await checkChoices(q, f);
    const row = await q.campaigns.insert(columnsOf(f));
    const view = await viewAndTell(q, publish, row.id, "create");
    return view;
  });
}

/**
 * PUT /campaigns/{id}: the whole dialog while editable; a CANCELADA campaign keeps everything but its
 * message texts (secondary §4); anything else is ERR_CAMPAIGN_NOT_EDITABLE.
 */
export function updateCampaign(ctx: RequestCtx, id: number, f: Input): Promise<CampaignView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
    if (editable(before)) {
      await checkChoices(q, f);
      await q.campaigns.update(id, columnsOf(f));
    } else if (before.status === "CANCELADA") {
      await q.campaigns.update(id, Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((k) => [k, f[k]])));
    } else {
      throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
    }
    const view = await viewAndTell(q, publish, id, "update");
    return view;
  });
}

/** A running campaign is cancelled first; its shippings go with it. */
export function deleteCampaign(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
    if (before.status === "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_RUNNING");
    await q.campaigns.delete(id);
    await publish(await campaignChanged(q, { action: "delete", id }));
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
  });
}

/**
 * EM_ANDAMENTO (or PROGRAMADA, before it starts) → CANCELADA: no send starts after this commits
 * (the sender looks before each one).
 */
export function cancelCampaign(ctx: RequestCtx, id: number): Promise<CampaignView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
    if (before.status !== "EM_ANDAMENTO" && before.status !== "PROGRAMADA") {
      throw new AppError("ERR_CAMPAIGN_INVALID_TRANSITION");
    }
    const now = new Date();
    await q.campaigns.update(id, { status: "CANCELADA", pausedAt: before.pausedAt ?? now });
    const view = await viewAndTell(q, publish, id, "update");
    return view;
  });
}

/**
 * CANCELADA → EM_ANDAMENTO: goes on where it stopped (its shippings are never made twice, so nobody
 * gets it twice); one cancelled before it started starts now.
 */
export function restartCampaign(ctx: RequestCtx, id: number): Promise<CampaignView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
    if (before.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_INVALID_TRANSITION");
    const now = new Date();
    if (before.startedAt) {
      await q.campaigns.update(id, { status: "EM_ANDAMENTO", completedAt: null });
      await resumeCampaign(tx, before, now);
    } else {
      await startCampaign(tx, before, await readCampaignSettings(tx, ctx.companyId), now);
    }
    const view = await viewAndTell(q, publish, id, "update");
    return view;
  });
}

/** POST /campaigns/{id}/media-upload: while the campaign is editable; the new file replaces the old. */
export async function setCampaignMedia(
  ctx: RequestCtx,
  id: number,
  store: (prefix: string) => Promise<{ path: string; fileName: string; mimetype: string }>,
): Promise<CampaignView> {
  const current = found(await scoped(ctx.db, ctx.companyId).campaigns.findById(id), "ERR_NO_CAMPAIGN_FOUND");
  if (!editable(current)) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
  const stored = await store(`campaigns/${id}-`);
  try {
    return await withTransaction(ctx, async (tx, { publish, afterCommit }) => {
      const q = scoped(tx, ctx.companyId);
      const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
      if (!editable(before)) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
      const mediaName = storableText(stored.fileName).trim().slice(0, 255) || "file";
      await q.campaigns.update(id, { mediaPath: stored.path, mediaName, mediaMimetype: stored.mimetype });
      const view = await viewAndTell(q, publish, id, "update");
      const old = before.mediaPath;
      if (old && old !== stored.path) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
      return view;
    });
  } catch (err) {
    await ctx.storage.remove(ctx.companyId, stored.path);
    throw err;
  }
}

export function removeCampaignMedia(ctx: RequestCtx, id: number): Promise<CampaignView> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await q.campaigns.lockById(id), "ERR_NO_CAMPAIGN_FOUND");
    if (!editable(before)) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
    await q.campaigns.update(id, { mediaPath: null, mediaName: null, mediaMimetype: null });
    const view = await viewAndTell(q, publish, id, "update");
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
    return view;
  });
}
