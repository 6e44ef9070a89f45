import { type AnnouncementEvent, type AnnouncementForm, type AnnouncementView, storableText } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { announcementReads, announcements } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_FK_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { type AnnouncementRow, presentAnnouncement } from "./presenter.js";
import { everyCompanyId, findActiveAnnouncement, findAnnouncement } from "./queries.js";

type Input = z.output<typeof AnnouncementForm>;
type Stored = { path: string; fileName: string };

/*
 * Announcements belong to the platform, not to one company (secondary §2): the routes let only super
 * users manage them (announcements.manage), and a super user manages every one, whichever company's
 * super user wrote it. The row's company is its writer's; its image is kept in that company's files.
 */

/** `company-{id}-announcement` to every company (their ids read in the transaction). */
async function announcementChanged(tx: Tx, change: AnnouncementEvent): Promise<DomainEvent<"announcement.changed">> {
  return { type: "announcement.changed", companyIds: await everyCompanyId(tx), change };
}

/** POST /announcements: the writer's company holds it; active and low priority unless said otherwise. */
export function createAnnouncement(ctx: RequestCtx, input: Input): Promise<AnnouncementView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const [row] = await tx
      .insert(announcements)
      .values({ companyId: ctx.companyId, title: input.title, text: input.text, priority: input.priority, status: input.status })
      .returning();
    const view = presentAnnouncement(row);
    await publish(await announcementChanged(tx, { action: "create", record: view }));
    return view;
  });
}

async function change(ctx: RequestCtx, id: number, patch: Partial<AnnouncementRow>, removeOld = false) {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const before = found(await findAnnouncement(tx, id, true), "ERR_NOT_FOUND");
    const [row] = await tx
      .update(announcements)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(announcements.id, id))
      .returning();
    const view = presentAnnouncement(row);
    await publish(await announcementChanged(tx, { action: "update", record: view }));
    if (removeOld && before.mediaPath && before.mediaPath !== row.mediaPath) {
      const old = before.mediaPath;
      afterCommit(() => ctx.storage.remove(before.companyId, old));
    }
    return view;
  });
}

/** PUT /announcements/{id}: title, text, priority and status. */
export function updateAnnouncement(ctx: RequestCtx, id: number, input: Input): Promise<AnnouncementView> {
  return change(ctx, id, { title: input.title, text: input.text, priority: input.priority, status: input.status });
}

/** DELETE /announcements/{id}: the announcement, everyone's reads of it (cascade) and its image. */
export function deleteAnnouncement(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const before = found(await findAnnouncement(tx, id, true), "ERR_NOT_FOUND");
    await tx.delete(announcements).where(eq(announcements.id, id));
    await publish(await announcementChanged(tx, { action: "delete", id }));
    if (before.mediaPath) {
      const path = before.mediaPath;
      afterCommit(() => ctx.storage.remove(before.companyId, path));
    }
  });
}

/**
 * POST /announcements/{id}/media-upload: a missing announcement is refused before the file is read;
 * the file goes into the announcement's company's files, and the old image is removed once the new
 * one is committed. `store` gets the company and a prefix and checks the bytes (routes.ts).
 */
export async function setAnnouncementMedia(
  ctx: RequestCtx,
  id: number,
  store: (companyId: number, prefix: string) => Promise<Stored>,
): Promise<AnnouncementView> {
  const row = found(await findAnnouncement(ctx.db, id), "ERR_NOT_FOUND");
  const stored = await store(row.companyId, `announcements/${id}-`);
  try {
    const mediaName = storableText(stored.fileName).trim().slice(0, 255) || "image";
    return await change(ctx, id, { mediaPath: stored.path, mediaName }, true);
  } catch (err) {
    // deleted meanwhile: the image has nothing to belong to
    await ctx.storage.remove(row.companyId, stored.path);
    throw err;
  }
}

/** DELETE /announcements/{id}/media-upload: the announcement stays, without its image. */
export function removeAnnouncementMedia(ctx: RequestCtx, id: number): Promise<AnnouncementView> {
  return change(ctx, id, { mediaPath: null, mediaName: null }, true);
}

/**
 * POST /announcements/{id}/read: the caller has read this active announcement (opened it in the
 * bell's reader). Reads are per user; the row carries the reader's company. Reading twice is once.
 */
export async function markAnnouncementRead(ctx: RequestCtx, id: number): Promise<void> {
  if (!(await findActiveAnnouncement(ctx.db, id))) throw new AppError("ERR_NOT_FOUND");
  await ctx.db
    .insert(announcementReads)
    .values({ companyId: ctx.companyId, announcementId: id, userId: ctx.user.id })
    .onConflictDoNothing()
    .catch((err: unknown) => {
      // deleted between the look-up and the insert: as missing as before it
      if (pgErrorCode(err) === PG_FK_VIOLATION) throw new AppError("ERR_NOT_FOUND");
      throw err;
    });
}
