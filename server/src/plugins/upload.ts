import type { FastifyRequest } from "fastify";
import { randomUUID } from "node:crypto";
import { AppError } from "../lib/app-error.js";
import { fileExtension } from "../lib/file-extension.js";
import { checkedMimetype } from "../lib/file-signature.js";
import type { Storage, StoredFile } from "../lib/storage.js";

type SingleFile = {
  storage: Storage;
  companyId: number;
  /**
   * Where the file goes under the company's folder; a fresh name, so a refused file never replaces the old one.
   * A function receives the part's declared name and type (to keep its extension).
   */
  path: string | ((file: { fileName: string; mimetype: string }) => string);
  maxBytes: number;
  /** Checks the file's first bytes (its magic number): the declared type is the client's word. */
  looksRight: (head: Buffer) => boolean;
};

/**
 * Stores the one file of a multipart request from `field`, streamed to disk (never whole in memory)
 * within `maxBytes` and the company's quota. Anything else (no multipart, another field, too big,
 * over quota, the wrong kind of file) answers a catalogue code and leaves no file behind.
 */
export async function storeSingleFile(
  req: FastifyRequest,
  /** The part's field name, or the names it may come under (POST /uploadfile: attachment or file). */
  field: string | readonly string[],
  opts: SingleFile,
): Promise<StoredFile & { fileName: string; mimetype: string }> {
  const fields: readonly string[] = typeof field === "string" ? [field] : field;
  const path0 = fields[0];
  if (!req.isMultipart()) throw new AppError("ERR_VALIDATION", { issues: [{ path: path0, message: "validation.required" }] });
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await req.file({ limits: { fileSize: opts.maxBytes, files: 1 } });
  } catch {
    throw new AppError("ERR_BAD_REQUEST");
  }
  if (!part || !fields.includes(part.fieldname)) {
    throw new AppError("ERR_VALIDATION", { issues: [{ path: path0, message: "validation.required" }] });
  }
  const declared = { fileName: part.filename || "", mimetype: part.mimetype || "application/octet-stream" };
  const path = typeof opts.path === "string" ? opts.path : opts.path(declared);
  const stored = await opts.storage.writeUpload(opts.companyId, path, part.file, opts.maxBytes);
  const head = await opts.storage.head(opts.companyId, stored.path, 16);
  if (!opts.looksRight(head)) {
    await opts.storage.remove(opts.companyId, stored.path);
    throw new AppError("ERR_INVALID_FILE_TYPE");
  }
  return { ...stored, fileName: declared.fileName, mimetype: checkedMimetype(head, declared.mimetype) };
}

/**
 * The request's one `file` part as an attachment of any type (a quick reply's, a campaign's), stored
 * under `prefix` with a fresh name that keeps its extension, within the upload limit and the quota.
 */
export function storeAttachment(req: FastifyRequest, prefix: string) {
  return storeSingleFile(req, "file", {
    storage: req.ctx.storage,
    companyId: req.ctx.companyId,
    path: ({ fileName, mimetype }) => `${prefix}${randomUUID()}${fileExtension({ fileName, mimetype })}`,
    maxBytes: req.ctx.config.maxUploadBytes,
    looksRight: () => true,
  });
}
