import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companyId, timestamps } from "./columns.js";
import { users } from "./users.js";

/**
 * secondary §3 Announcement: written by a super user (its company is the writer's) and shown to every
 * user of every company while active, highest priority (1) first.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    title: text("title").notNull(),
    text: text("text").notNull(),
    /** 1 high, 2 medium, 3 low (secondary §9). */
    priority: integer("priority").notNull().default(3),
    status: boolean("status").notNull().default(true),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    ...timestamps,
  },
  (t) => [index("announcements_status_priority_idx").on(t.status, t.priority, t.id)],
);

/** Which user has read which announcement; the row's company is the reader's. */
export const announcementReads = pgTable(
  "announcement_reads",
  {
    companyId: companyId(),
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.announcementId] })],
);

/** secondary §3 Help: a video (a YouTube id) with a title and description, for every company's users. */
export const helps = pgTable(
  "helps",
  {
    id: serial("id").primaryKey(),
    companyId: companyId(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    video: text("video").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("helps_title_idx").on(t.title, t.id)],
);
