import type { ScheduleView } from "@charla/contracts";
import type { schedules } from "../../db/schema/index.js";

export type ScheduleRow = typeof schedules.$inferSelect;

/** A schedule with the names the list shows: its contact's and its author's. */
export type ScheduleWithNames = {
  s: ScheduleRow;
  contactName: string | null;
  contactNumber: string | null;
  userName: string | null;
};

/** secondary §3 Schedule; the file is served at `mediaUrl`, never by its stored path. */
export function presentSchedule({ s, contactName, contactNumber, userName }: ScheduleWithNames): ScheduleView {
  return {
    id: s.id,
    body: s.body,
    contactId: s.contactId,
    contact: contactName !== null ? { id: s.contactId, name: contactName, number: contactNumber ?? "" } : null,
    sendAt: s.sendAt.toISOString(),
    sentAt: s.sentAt?.toISOString() ?? null,
    status: s.status,
    error: s.status === "ERRO" ? s.error : null,
    late: s.late,
    whatsappId: s.whatsappId,
    ticketId: s.ticketId,
    userId: s.userId,
    user: s.userId !== null && userName !== null ? { id: s.userId, name: userName } : null,
    mediaName: s.mediaPath !== null ? s.mediaName : null,
    mediaUrl: s.mediaPath !== null ? `/api/v1/schedules/${s.id}/media` : null,
    timezone: s.timezone,
    repeat: s.repeat,
    repeatDays: s.repeatDays,
    previousId: s.previousId,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
