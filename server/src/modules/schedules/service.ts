import { type ScheduleEvent, type ScheduleForm, type ScheduleView, storableText } from "@charla/contracts";
import type { z } from "zod";
import type { RequestCtx, Services } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { companyTimeZone } from "../companies/time-zone.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import type { ScheduleRow } from "./presenter.js";
import { findScheduleView, lockedSchedule } from "./queries.js";

type Input = z.output<typeof ScheduleForm>;

/** A time typed a moment ago (a slow form, clocks a little apart) is still "now", not the past. */
const PAST_GRACE_MS = 60_000;

/** `company-{id}-schedule` to the whole company: every user of a plan with schedules sees them all. */
export function scheduleChanged(companyId: number, change: ScheduleEvent): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "schedule", change };
}

/** A schedule's change already committed by a single statement (the sender's claims and settlements). */
export function publishSchedule(s: Pick<Services, "events">, companyId: number, change: ScheduleEvent): void {
  s.events.publish(scheduleChanged(companyId, change));
}

/** The contact and the connection named by the form, both the company's (another company's is not found). */
async function checkRefs(q: Scoped, input: Input) {
  found(await q.contacts.findById(input.contactId), "ERR_NO_CONTACT_FOUND");
  if (input.whatsappId) found(await q.whatsapps.findById(input.whatsappId), "ERR_NO_WAPP_FOUND");
}

function checkFuture(sendAt: Date, now = Date.now()) {
  if (sendAt.getTime() < now - PAST_GRACE_MS) throw new AppError("ERR_SCHEDULE_PAST");
}

/** A schedule that a node is sending, or has sent, no longer changes (issue 28). */
function assertChangeable(row: ScheduleRow) {
  if (row.status === "ENVIANDO") throw new AppError("ERR_SCHEDULE_SENDING");
  if (row.status === "ENVIADA") throw new AppError("ERR_SCHEDULE_SENT");
}

async function companyZone(q: Scoped): Promise<string> {
  return (await companyTimeZone(q.db, q.companyId)) ?? "America/Noronha";
}

const fields = (input: Input) => ({
  contactId: input.contactId,
  body: input.body,
  sendAt: new Date(input.sendAt),
  whatsappId: input.whatsappId,
  repeat: input.repeat,
  repeatDays: input.repeat === "weekly" ? input.repeatDays : [],
});

async function viewOf(q: Scoped, id: number): Promise<ScheduleView> {
  return found(await findScheduleView(q, id), "ERR_SCHEDULE_NOT_FOUND");
}

/** POST /schedules: the caller schedules it, in the company's zone (secondary §9 default America/Noronha). */
export function createSchedule(ctx: RequestCtx, input: Input): Promise<ScheduleView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    await checkRefs(q, input);
    checkFuture(new Date(input.sendAt));
    const row = await q.schedules.insert({ ...fields(input), userId: ctx.user.id, timezone: await companyZone(q) });
    const view = await viewOf(q, row.id);
    await publish(scheduleChanged(ctx.companyId, { action: "create", record: view }));
    return view;
  });
}

/**
 * PUT /schedules/{id}: a pending, failed or cancelled schedule is changed and waits for its (new)
 * time again; one being sent or already sent is refused. A time moved into the past is refused, but
 * an unchanged one is kept: saving a failed schedule as it was sends it again now.
 */
export function updateSchedule(ctx: RequestCtx, id: number, input: Input): Promise<ScheduleView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await lockedSchedule(q, id), "ERR_SCHEDULE_NOT_FOUND");
    assertChangeable(before);
    await checkRefs(q, input);
    const next = fields(input);
    if (next.sendAt.getTime() !== before.sendAt.getTime()) checkFuture(next.sendAt);
    await q.schedules.update(id, {
      ...next,
      status: "PENDENTE",
      error: null,
      late: false,
      lockedUntil: null,
      // a failed send's message stays in its ticket; the next try records its own
      messageId: null,
      sentAt: null,
    });
    const view = await viewOf(q, id);
    await publish(scheduleChanged(ctx.companyId, { action: "update", record: view }));
    return view;
  });
}

/** POST /schedules/{id}/cancel: a pending schedule will not be sent, even overdue after downtime (behaviours). */
export function cancelSchedule(ctx: RequestCtx, id: number): Promise<ScheduleView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await lockedSchedule(q, id), "ERR_SCHEDULE_NOT_FOUND");
    assertChangeable(before);
    await q.schedules.update(id, { status: "CANCELADA", lockedUntil: null });
    const view = await viewOf(q, id);
    await publish(scheduleChanged(ctx.companyId, { action: "update", record: view }));
    return view;
  });
}

/** DELETE /schedules/{id}: any but one being sent (its message may be on its way). */
export function deleteSchedule(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await lockedSchedule(q, id), "ERR_SCHEDULE_NOT_FOUND");
    if (before.status === "ENVIANDO") throw new AppError("ERR_SCHEDULE_SENDING");
    await q.schedules.delete(id);
    await publish(scheduleChanged(ctx.companyId, { action: "delete", id }));
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
  });
}

/**
 * POST /schedules/{id}/media-upload: a schedule not found or no longer changeable is refused before
 * the file is read; the new file replaces the old one, removed once the change is committed.
 */
export async function setScheduleMedia(
  ctx: RequestCtx,
  id: number,
  store: (prefix: string) => Promise<{ path: string; fileName: string }>,
): Promise<ScheduleView> {
  assertChangeable(found(await scoped(ctx.db, ctx.companyId).schedules.findById(id), "ERR_SCHEDULE_NOT_FOUND"));
  const stored = await store(`schedules/${id}-`);
  try {
    return await withTransaction(ctx, async (tx, { publish, afterCommit }) => {
      const q = scoped(tx, ctx.companyId);
      // claimed by a sender or deleted meanwhile: the upload has nothing to belong to
      const before = found(await lockedSchedule(q, id), "ERR_SCHEDULE_NOT_FOUND");
      assertChangeable(before);
      const mediaName = storableText(stored.fileName).trim().slice(0, 255) || "file";
      await q.schedules.update(id, { mediaPath: stored.path, mediaName });
      const view = await viewOf(q, id);
      await publish(scheduleChanged(ctx.companyId, { action: "update", record: view }));
      const old = before.mediaPath;
      if (old && old !== stored.path) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
      return view;
    });
  } catch (err) {
    await ctx.storage.remove(ctx.companyId, stored.path);
    throw err;
  }
}

/** DELETE /schedules/{id}/media-upload: the schedule stays, without its file. */
export function removeScheduleMedia(ctx: RequestCtx, id: number): Promise<ScheduleView> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const before = found(await lockedSchedule(q, id), "ERR_SCHEDULE_NOT_FOUND");
    assertChangeable(before);
    await q.schedules.update(id, { mediaPath: null, mediaName: null });
    const view = await viewOf(q, id);
    await publish(scheduleChanged(ctx.companyId, { action: "update", record: view }));
    const old = before.mediaPath;
    if (old) afterCommit(() => ctx.storage.remove(ctx.companyId, old));
    return view;
  });
}
