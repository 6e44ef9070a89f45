import { parseVcard } from "@charla/contracts";
import { safeHref } from "../../lib/safe-href";

export { parseVcard };

export type LocationParts = { imageUrl: string | null; link: string | null; description: string };

/** Thumbnails are shown only when they are pictures carried inline or served over https. */
function safeImage(raw: string): string | null {
  const value = raw.trim();
  if (/^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i.test(value)) return value;
  return /^https:\/\//i.test(value) ? safeHref(value) : null;
}

/** core §2: a location body is `imageUrl|link|description`; the description may itself hold pipes. */
export function parseLocation(body: string): LocationParts {
  const [image = "", link = "", ...rest] = body.split("|");
  return { imageUrl: safeImage(image), link: safeHref(link.trim()), description: rest.join("|").trim() };
}
