import { IdParams, ScheduleForm, SchedulesQuery } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { replyWithCompanyFile } from "../../lib/stored-file-reply.js";
import { storeAttachment } from "../../plugins/upload.js";
import { findScheduleView, pageSchedules, upcomingSchedules } from "./queries.js";
import {
  cancelSchedule,
  createSchedule,
  deleteSchedule,
  removeScheduleMedia,
  setScheduleMedia,
  updateSchedule,
} from "./service.js";

/**
 * Scheduled messages (secondary §2, §7; issue 28): every profile of a company whose plan has
 * useSchedules (403 otherwise, on every route) sees and manages the company's schedules; another
 * company's are not found.
 */
export async function schedulesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "schedules.use" } as const;

  r.get("/schedules", { schema: { querystring: SchedulesQuery }, config: use }, (req) =>
    pageSchedules(scopedFor(req), req.query.searchParam, req.query.pageNumber, req.query.contactId),
  );

  /** What goes out in the next 24 h, company-wide. */
  r.get("/schedules/upcoming", { config: use }, (req) => upcomingSchedules(scopedFor(req), new Date()));

  r.get("/schedules/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await findScheduleView(scopedFor(req), req.params.id), "ERR_SCHEDULE_NOT_FOUND"),
  );

  r.post("/schedules", { schema: { body: ScheduleForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createSchedule(req.ctx, req.body)),
  );

  r.put("/schedules/:id", { schema: { params: IdParams, body: ScheduleForm }, config: use }, (req) =>
    updateSchedule(req.ctx, req.params.id, req.body),
  );

  r.post("/schedules/:id/cancel", { schema: { params: IdParams }, config: use }, (req) => cancelSchedule(req.ctx, req.params.id));

  r.delete("/schedules/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteSchedule(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Multipart `file`: any file a message may carry, within the upload limit and the company's quota. */
  r.post("/schedules/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    setScheduleMedia(req.ctx, req.params.id, (prefix) => storeAttachment(req, prefix)),
  );

  r.delete("/schedules/:id/media-upload", { schema: { params: IdParams }, config: use }, (req) =>
    removeScheduleMedia(req.ctx, req.params.id),
  );

  /** The schedule's file, to the users of its company. */
  r.get("/schedules/:id/media", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const row = found(await scopedFor(req).schedules.findById(req.params.id), "ERR_SCHEDULE_NOT_FOUND");
    return replyWithCompanyFile(req, reply, { path: row.mediaPath, name: row.mediaName }, "ERR_SCHEDULE_NOT_FOUND");
  });
}
