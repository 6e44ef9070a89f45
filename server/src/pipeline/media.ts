import { parseVcard } from "@charla/contracts";
import type { MediaPayload } from "../channels/driver.js";
import { fileExtension } from "../lib/file-extension.js";

/** A stored medium's extension: the same rule as uploads (plugins/upload.ts), which sit below the pipeline. */
export const extensionOf = (media: MediaPayload): string => fileExtension(media);

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
