import type { AnnouncementEvent } from "@charla/contracts";

export type AnnouncementEvents = {
  /**
   * An announcement created, changed or deleted. It is platform-wide (secondary §2, §7): every
   * company's users hear it, so the publisher names the companies (read in its transaction) and the
   * listener needs no query of its own.
   */
  "announcement.changed": { companyIds: number[]; change: AnnouncementEvent };
};
