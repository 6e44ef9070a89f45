import type { MediaType, MessageView } from "@charla/contracts";
import { currentLanguage } from "../../../i18n";
import { daysFromToday, formatDate, sameDay, weekdayName } from "../../../lib/company-time";
import { parseLocation, parseVcard } from "../../../components/share/share-bodies";

/**
 * Day dividers: today, yesterday, the weekday within a week, else the date (core §1 DD/MM/YYYY); days
 * are the company's, as the bubbles' hours are.
 */
export function dayLabel(iso: string, t: (key: string) => string): string {
  const diff = -(daysFromToday(iso) ?? 0);
  if (diff === 0) return t("day.today");
  if (diff === 1) return t("day.yesterday");
  if (diff > 1 && diff < 7) return weekdayName(iso, currentLanguage());
  return formatDate(iso);
}

const GROUP_MS = 5 * 60_000;

/** Consecutive bubbles of one side within a few minutes read as one group (one tail, less spacing). */
export function continues(previous: MessageView | undefined, message: MessageView): boolean {
  if (!previous || previous.fromMe !== message.fromMe) return false;
  if (previous.participantName !== message.participantName) return false;
  if (!sameDay(previous.createdAt, message.createdAt)) return false;
  return Date.parse(message.createdAt) - Date.parse(previous.createdAt) < GROUP_MS;
}

/** The i18n key naming a kind of media, for quotes and previews without text. */
export function mediaLabelKey(type: MediaType): string | null {
  switch (type) {
    case "image":
      return "media.image";
    case "sticker":
      return "media.sticker";
    case "audio":
      return "media.audio";
    case "video":
      return "media.video";
    case "application":
      return "media.document";
    case "locationMessage":
      return "media.location";
    case "vcard":
      return "media.contact";
    case "call_log":
      return "media.call";
    default:
      return null;
  }
}

/** One line of what a message says, for the reply bar and quotes (never markup, see MessageText). */
export function previewOf(message: Pick<MessageView, "body" | "mediaType">, t: (key: string) => string): string {
  if (message.mediaType === "locationMessage") return parseLocation(message.body).description || t("media.location");
  if (message.mediaType === "vcard") return parseVcard(message.body).name || t("media.contact");
  const key = mediaLabelKey(message.mediaType);
  const body = message.body.trim();
  if (key && (message.mediaType === "call_log" || !body)) return t(key);
  return body;
}
