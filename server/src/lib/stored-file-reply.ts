import { extname } from "node:path";
import type { ErrorCode } from "@charla/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

/** Types a browser may show inline; anything else is served as a download it cannot run. */
const INLINE_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".ogg": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
};

/**
 * A company file (a message's media, a quick reply's attachment) as the answer: its type from its stored
 * extension only, never sniffed, under the name it was given (quotes and line breaks made harmless).
 */
export function sendStoredFile(
  reply: FastifyReply,
  file: { path: string; name: string | null; data: Buffer },
  cacheControl: string,
): FastifyReply {
  const ext = extname(file.path).toLowerCase();
  const type = INLINE_TYPES[ext];
  const name = (file.name || `file${ext}`).replace(/["\\\r\n]/g, "_");
  return reply
    .header("x-content-type-options", "nosniff")
    .header("cache-control", cacheControl)
    .header("content-disposition", `${type ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(name)}`)
    .type(type ?? "application/octet-stream")
    .send(file.data);
}

/**
 * The caller's company's file at `file.path` as the answer (after the route has decided the caller may
 * see it); no file, or one gone from the store, answers `missing`.
 */
export async function replyWithCompanyFile(
  req: FastifyRequest,
  reply: FastifyReply,
  file: { path: string | null; name: string | null },
  missing: ErrorCode,
  cacheControl = "private, no-cache",
): Promise<FastifyReply> {
  const path = file.path;
  if (!path) throw new AppError(missing);
  const data = await req.ctx.storage.read(req.ctx.companyId, path).catch(() => {
    throw new AppError(missing);
  });
  return sendStoredFile(reply, { path, name: file.name, data }, cacheControl);
}
