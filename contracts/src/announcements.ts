import { z } from "zod";
import { V, looseBoolOr, text } from "./common.js";

/** Longest title and text an announcement keeps, and its image's size (secondary §3 Announcement). */
export const AnnouncementLimits = { title: 200, text: 10_000, imageBytes: 5 * 1024 * 1024 } as const;

/** secondary §3, §9: 1 high, 2 medium, 3 low. */
export const AnnouncementPriorities = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof AnnouncementPriorities)[number];

/** The image an announcement may carry (secondary §5: png, jpg, jpeg), checked by its bytes too. */
export const AnnouncementImageTypes = [".png", ".jpg", ".jpeg"] as const;

// the family's clients post the priority as a number or as the select's string ("1")
const priority = z.preprocess(
  (v) => (v === null || v === "" || v === undefined ? 3 : typeof v === "string" ? Number(v) : v),
  z.union(AnnouncementPriorities.map((p) => z.literal(p)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>], {
    error: V.invalid,
  }),
);

/**
 * secondary §5: title and text required; priority 1, 2 or 3 (default 3) and status (default active,
 * secondary §4, §9). The image goes up separately (media-upload).
 */
export const AnnouncementForm = z.object({
  title: text({ error: V.required }).trim().min(1, V.required).max(AnnouncementLimits.title, V.tooLong),
  text: text({ error: V.required }).trim().min(1, V.required).max(AnnouncementLimits.text, V.tooLong),
  priority: priority.default(3),
  status: looseBoolOr(true),
});
export type AnnouncementForm = z.input<typeof AnnouncementForm>;

/** secondary §3 Announcement; `mediaUrl` is the image's API path (GET /announcements/{id}/media) when it has one. */
export type AnnouncementView = {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
};

/** GET /announcements (super users): 20 a page, newest first, searched in title and text. */
export type AnnouncementsPage = { records: AnnouncementView[]; count: number; hasMore: boolean };

/** One announcement in the top bar's bell: `read` says whether the caller has opened it. */
export type AnnouncementNotice = AnnouncementView & { read: boolean };

/**
 * GET /announcements/for-me (every user): the active announcements, highest priority first (then
 * newest), and how many of them the caller has not read.
 */
export type AnnouncementsForMe = { records: AnnouncementNotice[]; unread: number };

/**
 * `company-{id}-announcement` (secondary §7): heard by every company's users, since an announcement is
 * platform-wide. `read` is per user, so it is not in the event: the bell reads its list again.
 */
export type AnnouncementEvent = { action: "create" | "update"; record: AnnouncementView } | { action: "delete"; id: number };
