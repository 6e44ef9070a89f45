import type { FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.js";

/**
 * Reads the one file of a multipart request from `field`. Anything else (no multipart, another
 * field, a file over `maxBytes`) answers a catalogue code, never a 500.
 */
export async function readSingleFile(req: FastifyRequest, field: string, maxBytes: number): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError("ERR_VALIDATION", { issues: [{ path: field, message: "validation.required" }] });
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1 } });
  } catch {
    throw new AppError("ERR_BAD_REQUEST");
  }
  if (!part || part.fieldname !== field) {
    throw new AppError("ERR_VALIDATION", { issues: [{ path: field, message: "validation.required" }] });
  }
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch {
    throw new AppError("ERR_FILE_TOO_LARGE");
  }
  if (part.file.truncated) throw new AppError("ERR_FILE_TOO_LARGE");
  return data;
}
