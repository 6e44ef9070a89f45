import { extname } from "node:path";
import { parseVcard } from "@charla/contracts";
import type { MediaPayload } from "../channels/driver.js";

const byMime: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/webp": ".webp",
  "audio/ogg": ".ogg",
  "audio/mpeg": ".mp3",
  "audio/mp4": ".m4a",
  "video/mp4": ".mp4",
  "application/pdf": ".pdf",
};

/** A safe file extension: the known one for the mimetype, else the name's own if plain, else none. */
export function extensionOf(media: MediaPayload): string {
  const mime = media.mimetype.split(";")[0].trim().toLowerCase();
  if (byMime[mime]) return byMime[mime];
  const ext = extname(media.fileName).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : "";
}

/**
 * The ticket's lastMessage: the text, or the file name for media without a caption; a location its
 * description (else its link) and a contact card its name, not the raw formats of core §2.
 */
export function summary(msg: { body: string; mediaType: string; fileName?: string | null }): string {
  let text = msg.body.trim() || msg.fileName || "";
  if (msg.mediaType === "locationMessage") {
    const [, link = "", ...rest] = msg.body.split("|");
    text = `📍 ${rest.join("|").trim() || link.trim()}`;
  } else if (msg.mediaType === "vcard") text = `👤 ${parseVcard(msg.body).name}`;
  return text.slice(0, 255);
}
