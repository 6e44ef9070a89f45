import type { AnnouncementPriority, AnnouncementView } from "@charla/contracts";
import type { announcements } from "../../db/schema/index.js";

export type AnnouncementRow = typeof announcements.$inferSelect;

/** secondary §3 Announcement; the image's bytes are at `mediaUrl` when it has one. */
export function presentAnnouncement(a: AnnouncementRow): AnnouncementView {
  return {
    id: a.id,
    title: a.title,
    text: a.text,
    // the form admits 1..3 only; a row written otherwise reads as the default, low
    priority: (a.priority === 1 || a.priority === 2 ? a.priority : 3) as AnnouncementPriority,
    status: a.status,
    mediaName: a.mediaPath !== null ? a.mediaName : null,
    mediaUrl: a.mediaPath !== null ? `/api/v1/announcements/${a.id}/media` : null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
