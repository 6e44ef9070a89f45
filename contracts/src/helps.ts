import { z } from "zod";
import { V, looseTextOr, text } from "./common.js";

/** Longest title and description a help video keeps (secondary §3 Help). */
export const HelpLimits = { title: 200, description: 2000 } as const;

/** A YouTube video id: 11 characters of the URL-safe base64 alphabet. */
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const ID = "([A-Za-z0-9_-]{11})";
const HOST = "(?:https?:\\/\\/)?(?:www\\.|m\\.|music\\.)?";
// what may follow the id in a pasted link: a query, a fragment or a trailing slash, never more id
const REST = "(?:[?&#/].*)?$";
const YOUTUBE_LINKS = [
  new RegExp(`^${HOST}youtu\\.be\\/${ID}${REST}`, "i"),
  new RegExp(`^${HOST}youtube(?:-nocookie)?\\.com\\/(?:embed|shorts|live|v)\\/${ID}${REST}`, "i"),
  new RegExp(`^${HOST}youtube\\.com\\/watch\\?(?:[^#]*&)?v=${ID}(?:[&#].*)?$`, "i"),
];

/**
 * The video id of a help's `video` field: the id itself, or the one inside a pasted YouTube link
 * (watch, youtu.be, embed, shorts, live). Null when it is neither, so the form and the API refuse it
 * rather than store a code the player cannot play.
 */
export function youtubeIdOf(value: string): string | null {
  const v = value.trim();
  if (YOUTUBE_ID.test(v)) return v;
  for (const link of YOUTUBE_LINKS) {
    const id = link.exec(v)?.[1];
    if (id) return id;
  }
  return null;
}

/**
 * The Ayuda tab's form (secondary §2, §3 Help): a title, an optional description and the video code,
 * which may be pasted as a YouTube link; the id is what is kept.
 */
export const HelpForm = z.object({
  title: text().trim().min(1, V.required).max(HelpLimits.title, V.tooLong),
  description: looseTextOr(text().trim().max(HelpLimits.description, V.tooLong), ""),
  video: text()
    .trim()
    .min(1, V.required)
    .refine((v) => youtubeIdOf(v) !== null, V.invalid)
    .transform((v) => youtubeIdOf(v) ?? v),
});
export type HelpForm = z.input<typeof HelpForm>;

/** secondary §3 Help; `video` is the YouTube id. */
export type HelpView = {
  id: number;
  title: string;
  description: string;
  video: string;
  createdAt: string;
  updatedAt: string;
};

/** Where the page shows a video: the thumbnail's and the privacy-enhanced player's address (the CSP allows both). */
export const youtubeThumbnail = (id: string) => `https://i.ytimg.com/vi/${encodeURIComponent(id)}/hqdefault.jpg`;
export const youtubeEmbed = (id: string) => `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?autoplay=1&rel=0`;
