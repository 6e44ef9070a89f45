import type { HelpView } from "@charla/contracts";
import type { helps } from "../../db/schema/index.js";

export type HelpRow = typeof helps.$inferSelect;

/** secondary §3 Help: the video is a YouTube id (the page builds the thumbnail and player addresses). */
export function presentHelp(h: HelpRow): HelpView {
  return {
    id: h.id,
    title: h.title,
    description: h.description,
    video: h.video,
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}
