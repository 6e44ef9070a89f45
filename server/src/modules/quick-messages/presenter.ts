import type { QuickMessageView } from "@charla/contracts";
import type { quickMessages } from "../../db/schema/index.js";

export type QuickMessageRow = typeof quickMessages.$inferSelect;

/** secondary §3 QuickMessage; `isMedia` follows the stored file, whose bytes are at `mediaUrl`. */
export function presentQuickMessage(m: QuickMessageRow): QuickMessageView {
  return {
    id: m.id,
    shortcode: m.shortcode,
    message: m.message,
    geral: m.geral,
    status: m.status,
    isMedia: m.mediaPath !== null,
    mediaName: m.mediaPath !== null ? m.mediaName : null,
    mediaUrl: m.mediaPath !== null ? `/api/v1/quick-messages/${m.id}/media` : null,
    userId: m.userId,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
