import { randomUUID } from "node:crypto";
import { extname } from "node:path";
import { AnnouncementForm, AnnouncementLimits, IdParams, PageQuery } from "@charla/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError, found } from "../../lib/app-error.js";
import { isJpeg, isPng } from "../../lib/storage.js";
import { sendStoredFile } from "../../lib/stored-file-reply.js";
import { storeSingleFile } from "../../plugins/upload.js";
import { presentAnnouncement } from "./presenter.js";
import { announcementsFor, findActiveAnnouncement, findAnnouncement, pageAnnouncements } from "./queries.js";
import {
  createAnnouncement,
  deleteAnnouncement,
  markAnnouncementRead,
  removeAnnouncementMedia,
  setAnnouncementMedia,
  updateAnnouncement,
} from "./service.js";

/** secondary §5: png, jpg or jpeg, by its name (or declared type) and by its bytes, which must agree. */
const IMAGE_KINDS: Record<string, (head: Buffer) => boolean> = { ".png": isPng, ".jpg": isJpeg, ".jpeg": isJpeg };
const BY_TYPE: Record<string, string> = { "image/png": ".png", "image/jpeg": ".jpg", "image/jpg": ".jpg" };

/** The request's one `file` part, stored only when it is the png or jpeg it says it is, within the image limit. */
function storeImage(req: FastifyRequest, companyId: number, prefix: string) {
  let ext = "";
  return storeSingleFile(req, "file", {
    storage: req.ctx.storage,
    companyId,
    path: ({ fileName, mimetype }) => {
      const named = extname(fileName).toLowerCase();
      ext = named in IMAGE_KINDS ? named : (BY_TYPE[mimetype.toLowerCase()] ?? "");
      return `${prefix}${randomUUID()}${ext || ".bin"}`;
    },
    maxBytes: Math.min(AnnouncementLimits.imageBytes, req.ctx.config.maxUploadBytes),
    looksRight: (head) => IMAGE_KINDS[ext]?.(head) ?? false,
  });
}

/**
 * Announcements (secondary §2, §6, §7). Management (the list, a record, writes, the image) is for
 * super users only (announcements.manage: anyone else 403 before any query); they manage every
 * announcement, whichever company's super user wrote it. Every user of every company reads the active
 * ones in the top bar's bell (announcements.read), marks them read and sees their image: an
 * announcement is platform-wide, so these do not depend on the caller's company; an inactive one is
 * not found for them.
 */
export async function announcementsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: "announcements.manage" } as const;
  const read = { permission: "announcements.read" } as const;

  r.get("/announcements/for-me", { config: read }, (req) => announcementsFor(req.ctx.db, req.ctx.user.id));

  r.post("/announcements/:id/read", { schema: { params: IdParams }, config: read }, async (req, reply) => {
    await markAnnouncementRead(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** The image: to super users always, to everyone else while the announcement is active. */
  r.get("/announcements/:id/media", { schema: { params: IdParams }, config: read }, async (req, reply) => {
    const db = req.ctx.db;
    const row = found(
      req.ctx.user.super ? await findAnnouncement(db, req.params.id) : await findActiveAnnouncement(db, req.params.id),
      "ERR_NOT_FOUND",
    );
    if (!row.mediaPath) throw new AppError("ERR_NOT_FOUND");
    const data = await req.ctx.storage.read(row.companyId, row.mediaPath).catch(() => {
      throw new AppError("ERR_NOT_FOUND");
    });
    return sendStoredFile(reply, { path: row.mediaPath, name: row.mediaName, data }, "private, max-age=300");
  });

  r.get("/announcements", { schema: { querystring: PageQuery }, config: manage }, (req) =>
    pageAnnouncements(req.ctx.db, req.query.searchParam, req.query.pageNumber),
  );

  r.get("/announcements/:id", { schema: { params: IdParams }, config: manage }, async (req) =>
    presentAnnouncement(found(await findAnnouncement(req.ctx.db, req.params.id), "ERR_NOT_FOUND")),
  );

  r.post("/announcements", { schema: { body: AnnouncementForm }, config: manage }, async (req, reply) =>
    reply.status(201).send(await createAnnouncement(req.ctx, req.body)),
  );

  r.put("/announcements/:id", { schema: { params: IdParams, body: AnnouncementForm }, config: manage }, (req) =>
    updateAnnouncement(req.ctx, req.params.id, req.body),
  );

  r.delete("/announcements/:id", { schema: { params: IdParams }, config: manage }, async (req, reply) => {
    await deleteAnnouncement(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Multipart `file`: a png or jpeg image (secondary §5), checked by its bytes. */
  r.post("/announcements/:id/media-upload", { schema: { params: IdParams }, config: manage }, (req) =>
    setAnnouncementMedia(req.ctx, req.params.id, (companyId, prefix) => storeImage(req, companyId, prefix)),
  );

  r.delete("/announcements/:id/media-upload", { schema: { params: IdParams }, config: manage }, (req) =>
    removeAnnouncementMedia(req.ctx, req.params.id),
  );
}
