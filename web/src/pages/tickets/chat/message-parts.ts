import type { MediaType, MessageView } from "@charla/contracts";
import dayjs from "../../../lib/dayjs";
import { formatDate } from "../../../i18n/dates";
import { parseLocation, parseVcard } from "../../../components/share/share-bodies";

/** Day dividers: today, yesterday, the weekday within a week, else the date (core §1 DD/MM/YYYY). */
export function dayLabel(iso: string, t: (key: string) => string): string {
  const day = dayjs(iso).startOf("day");
  const diff = dayjs().startOf("day").diff(day, "day");
  if (diff === 0) return t("day.today");
  if (diff === 1) return t("day.yesterday");
  if (diff > 1 && diff < 7) {
    const weekday = day.format("dddd");
    return weekday.charAt(0).toUpperCase() + weekday.slice(1);
  }
  return formatDate(iso);
}

export function sameDay(a: string, b: string): boolean {
  return dayjs(a).isSame(dayjs(b), "day");
}

export function timeOf(iso: string): string {
  return dayjs(iso).format("HH:mm");
}

/** Consecutive bubbles of one side within a few minutes read as one group (one tail, less spacing). */
export function continues(previous: MessageView | undefined, message: MessageView): boolean {
  if (!previous || previous.fromMe !== message.fromMe) return false;
  if (previous.participantName !== message.participantName) return false;
  if (!sameDay(previous.createdAt, message.createdAt)) return false;
  return dayjs(message.createdAt).diff(dayjs(previous.createdAt), "minute") < 5;
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
