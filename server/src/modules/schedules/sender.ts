import { randomUUID } from "node:crypto";
import { extname } from "node:path";
import { Ack } from "@charla/contracts";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { outgoingMessageId } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { messages, schedules } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { fillTemplate } from "../../lib/template.js";
import { ticketForCompany } from "../tickets/openings.js";
import { within } from "../tickets/transitions.js";
import { deliverQueued, mediaTypeOf } from "../messages/send.js";
import type { ScheduleRow } from "./presenter.js";
import { presentRows } from "./queries.js";
import { insertNextOccurrence } from "./next.js";
import { publishSchedule } from "./service.js";

/** Sent more than this after its time: marked late (the server, or the sweep, was not there when it was due). */
export const LATE_AFTER_MS = 60_000;
/** A schedule whose connection has no running session waits this long before it is tried again. */
const SESSION_RETRY_MS = 30_000;
/**
 * …and stops waiting this long after its time: a session down for a day (unlinked, deleted, a number
 * banned) would otherwise keep it PENDENTE for good. It fails with ERR_WAPP_NOT_INITIALIZED, so the
 * list shows why, and its message (if recorded) is marked failed too.
 */
export const SESSION_WAIT_MAX_MS = 24 * 3_600_000;
const stopsWaiting = (row: ScheduleRow) => Date.now() - row.sendAt.getTime() > SESSION_WAIT_MAX_MS;

const MIME_BY_EXT: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".ogg": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
};
const mimeOf = (path: string) => MIME_BY_EXT[extname(path).toLowerCase()] ?? "application/octet-stream";

/**
 * Claims due schedules of every company (and ENVIANDO ones whose node's lease lapsed) with
 * `FOR UPDATE SKIP LOCKED`, and marks them ENVIANDO under a lease: no two nodes send one, and an edit
 * or delete meanwhile is refused. A PENDENTE row's `locked_until` is a "not before" (its session was down).
 */
async function claimDue(s: Services, now: Date, limit: number): Promise<ScheduleRow[]> {
  return withTransaction(s.db, async (tx) => {
    const due = await tx
      .select({ id: schedules.id })
      .from(schedules)
      .where(
        or(
          and(
            eq(schedules.status, "PENDENTE"),
            lte(schedules.sendAt, now),
            or(isNull(schedules.lockedUntil), lte(schedules.lockedUntil, now)),
          ),
          and(eq(schedules.status, "ENVIANDO"), lt(schedules.lockedUntil, now)),
        ),
      )
      .orderBy(asc(schedules.sendAt), asc(schedules.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const until = new Date(now.getTime() + s.config.campaignSendTtlSec * 1000);
    return tx
      .update(schedules)
      .set({
        status: "ENVIANDO",
        lockedUntil: until,
        late: sql`${schedules.late} or ${schedules.sendAt} < ${new Date(now.getTime() - LATE_AFTER_MS)}`,
        updatedAt: now,
      })
      .where(
        inArray(
          schedules.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** The row while it is still this node's claim: a node that took it over since moved the lease on. */
const stillOurs = (row: ScheduleRow) =>
  and(
    eq(schedules.companyId, row.companyId),
    eq(schedules.id, row.id),
    eq(schedules.status, "ENVIANDO"),
    eq(schedules.lockedUntil, row.lockedUntil as Date),
  );

async function settle(s: Services, row: ScheduleRow, values: Partial<ScheduleRow>): Promise<boolean> {
  const done = await s.db
    .update(schedules)
    .set({ ...values, updatedAt: new Date() })
    .where(stillOurs(row))
    .returning({ id: schedules.id });
  return done.length > 0;
}

/** The connection a schedule goes through: its own, the contact's ticket connection, or the default one. */
async function connectionOf(s: Services, row: ScheduleRow, contact: { whatsappId: number | null }): Promise<number | null> {
  if (row.whatsappId) return row.whatsappId;
  if (contact.whatsappId) return contact.whatsappId;
  const q = scoped(s.db, row.companyId);
  const [w] = await q.db
    .select({ id: q.whatsapps.table.id })
    .from(q.whatsapps.table)
    .where(q.whatsapps.where(eq(q.whatsapps.table.isDefault, true)))
    .limit(1);
  return w?.id ?? null;
}

/** A copy of the schedule's file for its message: the schedule (and its next occurrence) keeps its own. */
async function copyMedia(s: Services, row: ScheduleRow): Promise<string | null> {
  if (!row.mediaPath) return null;
  const data = await s.storage.read(row.companyId, row.mediaPath);
  return s.storage.write(row.companyId, `media/schedule-${row.id}-${randomUUID()}${extname(row.mediaPath).toLowerCase()}`, data);
}

/**
 * Step 1, record first: the ticket found or opened as an inbound message would (pipeline/ticket.ts),
 * the message committed queued under the channel id it will carry, and its id kept on the schedule,
 * all in one transaction. A retry after a crash finds `message_id` and records nothing new.
 */
async function record(s: Services, row: ScheduleRow, now: Date): Promise<number | "no-session" | null> {
  const q = scoped(s.db, row.companyId);
  const contact = await q.contacts.findById(row.contactId);
  if (!contact?.number) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  const whatsappId = await connectionOf(s, row, contact);
  if (!whatsappId) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
  if (!(await s.sessions.driverFor(row.companyId, whatsappId))) return "no-session";
  const mediaPath = await copyMedia(s, row);
  try {
    return await withTransaction(s, async (tx, hooks) => {
      const w = within(s, tx, row.companyId, hooks);
      const t = w.q;
      const [mine] = await tx.select().from(schedules).where(stillOurs(row)).for("update");
      if (!mine) return null;
      // a message the company starts: the conversation is its author's (openings.ts), never the bot's
      const author = row.userId ? await t.users.findById(row.userId) : null;
      const { ticket } = await ticketForCompany(
        w,
        { id: contact.id, isGroup: contact.isGroup },
        { author: author ? { id: author.id } : null, whatsappId },
      );
      const body = fillTemplate(row.body, {
        name: contact.name,
        email: contact.email ?? "",
        user: author?.name ?? "",
        ticketId: ticket.id,
        timeZone: row.timezone ?? undefined,
        now,
      });
      const [message] = await tx
        .insert(messages)
        .values({
          companyId: row.companyId,
          ticketId: ticket.id,
          contactId: contact.id,
          whatsappId: ticket.whatsappId,
          channelId: outgoingMessageId(),
          body,
          mediaType: mediaPath ? mediaTypeOf(mimeOf(mediaPath)) : "chat",
          mediaPath,
          mediaName: mediaPath ? row.mediaName : null,
          fromMe: true,
          read: true,
          ack: Ack.queued,
          userId: row.userId,
          clientId: `schedule-${row.id}`,
        })
        .returning({ id: messages.id });
      await t.schedules.update(row.id, { messageId: message.id, ticketId: ticket.id });
      return message.id;
    });
  } catch (err) {
    if (mediaPath) await s.storage.remove(row.companyId, mediaPath);
    throw err;
  }
}

/** The echo row our recorded message became (completeUnderDriverId), found by its clientId in the schedule's ticket. */
async function mergedInto(s: Services, row: ScheduleRow) {
  const q = scoped(s.db, row.companyId);
  const [mine] = await q.db
    .select({ ticketId: schedules.ticketId })
    .from(schedules)
    .where(q.schedules.where(eq(schedules.id, row.id)));
  if (!mine?.ticketId) return null;
  const [echo] = await q.db
    .select()
    .from(messages)
    .where(q.messages.where(eq(messages.ticketId, mine.ticketId), eq(messages.clientId, `schedule-${row.id}`)));
  return echo ?? null;
}

type Outcome = { status: "ENVIADA"; messageId: number } | { status: "ERRO"; error: string } | { status: "waiting" };

/**
 * Steps 2 and 3 (messages/send.ts `deliverQueued`): the recorded row is sent only while still queued,
 * under its recorded channel id, so a retry never sends what went out. A row the interrupted-sends
 * sweep gave up on (the node died mid-send) is queued again and goes under the same id, which the
 * phone shows once.
 */
async function deliver(s: Services, row: ScheduleRow, messageId: number): Promise<Outcome> {
  const q = scoped(s.db, row.companyId);
  await s.db
    .update(messages)
    .set({ ack: Ack.queued, ackError: null, updatedAt: new Date() })
    .where(
      q.messages.where(eq(messages.id, messageId), eq(messages.ack, Ack.failed), eq(messages.ackError, "ERR_SEND_INTERRUPTED")),
    );
  try {
    // past the wait, a session still down marks the message failed (ERR_WAPP_NOT_INITIALIZED) instead of throwing
    await deliverQueued(s, row.companyId, [messageId], { lastAttempt: stopsWaiting(row) });
  } catch {
    return { status: "waiting" };
  }
  // a driver that chose its own id may have merged our row into its echo, which keeps our clientId
  const sent = (await q.messages.findById(messageId)) ?? (await mergedInto(s, row));
  if (!sent) return { status: "ERRO", error: "ERR_NO_MESSAGE_FOUND" };
  if (sent.ack === Ack.failed) return { status: "ERRO", error: sent.ackError ?? "ERR_SENDING_WAPP_MSG" };
  if (sent.ack === Ack.queued) return { status: "waiting" };
  return { status: "ENVIADA", messageId: sent.id };
}

/** One claimed schedule, to its end: sent (and its next occurrence made), failed with its reason, or left to wait. */
async function sendOne(s: Services, row: ScheduleRow, now: Date): Promise<void> {
  let messageId = row.messageId;
  try {
    if (!messageId) {
      const recorded = await record(s, row, now);
      if (recorded === null) return;
      if (recorded === "no-session") {
        if (stopsWaiting(row)) {
          await settle(s, row, { status: "ERRO", error: "ERR_WAPP_NOT_INITIALIZED", lockedUntil: null });
          return;
        }
        // nothing recorded: the schedule waits for its session, still changeable meanwhile
        await settle(s, row, { status: "PENDENTE", lockedUntil: new Date(Date.now() + SESSION_RETRY_MS) });
        return;
      }
      messageId = recorded;
    }
  } catch (err) {
    const code = err instanceof AppError ? err.code : "ERR_SENDING_WAPP_MSG";
    await settle(s, row, { status: "ERRO", error: code, lockedUntil: null });
    return;
  }
  const outcome = await deliver(s, row, messageId);
  if (outcome.status === "waiting") {
    // recorded but not sent (its session dropped): tried again under the same id once this lease is short
    await settle(s, row, { lockedUntil: new Date(Date.now() + SESSION_RETRY_MS) });
    return;
  }
  if (outcome.status === "ERRO") {
    await settle(s, row, { status: "ERRO", error: outcome.error, lockedUntil: null });
    return;
  }
  await withTransaction(s.db, async (tx) => {
    const [done] = await tx
      .update(schedules)
      .set({
        status: "ENVIADA",
        sentAt: new Date(),
        error: null,
        lockedUntil: null,
        messageId: outcome.messageId,
        updatedAt: new Date(),
      })
      .where(stillOurs(row))
      .returning();
    // the next occurrence commits with the sent one, and previous_id is unique: made once
    if (done) await insertNextOccurrence(s, tx, done, new Date());
  });
}

/** The send sweep's batch (jobs/schedules.ts): returns how many schedules it took. */
export async function sendDueSchedules(s: Services, now: Date, limit: number): Promise<number> {
  const claimed = await claimDue(s, now, limit);
  for (const row of claimed) {
    try {
      await sendOne(s, row, now);
    } catch (err) {
      s.log.warn({ err, scheduleId: row.id, companyId: row.companyId }, "schedule not sent; its lease lets a later round retry");
    }
    await announce(s, row.companyId, row.id);
  }
  return claimed.length;
}

/** The schedule and any occurrence it made, to the company's lists. */
async function announce(s: Services, companyId: number, id: number) {
  const q = scoped(s.db, companyId);
  const next = await q.db
    .select({ id: schedules.id })
    .from(schedules)
    .where(q.schedules.where(eq(schedules.previousId, id)));
  const views = await presentRows(q, [id, ...next.map((n) => n.id)]);
  for (const view of views) {
    publishSchedule(s, companyId, { action: view.id === id ? "update" : "create", record: view });
  }
}
