import { z } from "zod";
import { V, text, looseBoolOr, looseTextOr } from "./common.js";
import { Limits } from "./limits.js";

/** Longest shortcode and message a quick reply keeps (secondary §3 QuickMessage). */
export const QuickMessageLimits = { shortcode: 100, message: Limits.messageBody.max } as const;

/**
 * secondary §5: the shortcode is required ('Obligatorio'); message, geral and status complete the
 * form (status: Active or Inactive, secondary §4). The file goes up separately (media-upload).
 */
export const QuickMessageForm = z.object({
  shortcode: text({ error: V.mandatory })
    .trim()
    // the slash list matches what follows "/": a leading slash typed here is not part of the code
    .transform((s) => s.replace(/^\/+/, "").trim())
    .pipe(text().min(1, V.mandatory).max(QuickMessageLimits.shortcode, V.tooLong).regex(/^\S+$/, V.invalid)),
  message: looseTextOr(text().max(QuickMessageLimits.message, V.tooLong), ""),
  geral: looseBoolOr(true),
  status: looseBoolOr(true),
});
export type QuickMessageForm = z.input<typeof QuickMessageForm>;

/** secondary §3 QuickMessage; `mediaUrl` is the file's API path (GET /quick-messages/{id}/media) when it has one. */
export type QuickMessageView = {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  mediaName: string | null;
  mediaUrl: string | null;
  /** The reply's author; a shared (geral) one is seen by the whole company. */
  userId: number | null;
  createdAt: string;
  updatedAt: string;
};

/** GET /quick-messages: 20 a page. */
export type QuickMessagesPage = { records: QuickMessageView[]; hasMore: boolean; count: number };

/** `company-{id}-quickemessage` (secondary §7). */
export type QuickMessageEvent = { action: "create" | "update"; record: QuickMessageView } | { action: "delete"; id: number };
