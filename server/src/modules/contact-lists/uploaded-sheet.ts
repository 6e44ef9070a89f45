import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { ContactListImportLimits } from "@charla/contracts";
import type { FastifyRequest } from "fastify";
import { storeSingleFile } from "../../plugins/upload.js";
import { withImportSlot } from "./import-slots.js";
import { sheetKind } from "./import.js";
import type { SheetKind } from "./spreadsheet.js";

/**
 * Multipart `file` within ContactListImportLimits, stored under the company's imports/ while `read`
 * reads it, and removed however `read` ends (a crash leaves it to the start-up sweep in leftovers.ts).
 * `read` runs in one of the import slots (ERR_IMPORT_BUSY when none is free), taken once the file is
 * stored: a slow upload holds no slot.
 */
export async function withUploadedSheet<T>(
  req: FastifyRequest,
  read: (source: Readable, kind: SheetKind) => Promise<T>,
): Promise<T> {
  const { storage, companyId } = req.ctx;
  const stored = await storeSingleFile(req, "file", {
    storage,
    companyId,
    path: `imports/${randomUUID()}`,
    maxBytes: ContactListImportLimits.bytes,
    looksRight: () => true,
  });
  try {
    const kind = sheetKind(await storage.head(companyId, stored.path, 512));
    return await withImportSlot(companyId, () => read(storage.stream(companyId, stored.path), kind));
  } finally {
    await storage.remove(companyId, stored.path);
  }
}
