import { extname } from "node:path";

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
export function fileExtension(file: { mimetype: string; fileName: string }): string {
  const mime = file.mimetype.split(";")[0].trim().toLowerCase();
  if (byMime[mime]) return byMime[mime];
  const ext = extname(file.fileName).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : "";
}
