import { randomUUID } from "node:crypto";
import { FileListForm, type FileListsPage, IdParams, IdSchema, PageQuery, storableText, V } from "@charla/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { AppError, found } from "../../lib/app-error.js";
import { checkedMimetype } from "../../lib/file-signature.js";
import { replyWithCompanyFile } from "../../lib/stored-file-reply.js";
import { extensionOf } from "../../pipeline/media.js";
import { findFileListView, findOption, pageFileLists } from "./queries.js";
import { attachOptionFiles, createFileList, deleteFileList, type UploadedOption, updateFileList } from "./service.js";

const MAX_FILES = 20;

/**
 * The multipart body of POST /files/uploadList/{fileId} (secondary §7: files, mediaType, name, id,
 * fileId, typeArch): the n-th `files` part goes to the option of the n-th `id` field, whichever of the
 * two comes first (the reference form sends each file, then its mediaType, name and id). The type is
 * the part's own; name and mediaType only echo the option. Files are streamed to the company's store;
 * a refused request leaves none.
 */
async function readOptionFiles(req: FastifyRequest, listId: number): Promise<UploadedOption[]> {
  if (!req.isMultipart()) throw new AppError("ERR_VALIDATION", { issues: [{ path: "files", message: V.required }] });
  const { storage, companyId, config } = req.ctx;
  const files: Omit<UploadedOption, "optionId">[] = [];
  const optionIds: number[] = [];
  try {
    for await (const part of req.parts({ limits: { fileSize: config.maxUploadBytes, files: MAX_FILES } })) {
      if (part.type === "field") {
        if (part.fieldname === "id") {
          const parsed = IdSchema.safeParse(part.value);
          if (!parsed.success || optionIds.length >= MAX_FILES) {
            throw new AppError("ERR_VALIDATION", { issues: [{ path: "id", message: V.invalid }] });
          }
          optionIds.push(parsed.data);
        }
        continue;
      }
      if (part.fieldname !== "files") {
        part.file.resume();
        continue;
      }
      const declared = part.mimetype || "application/octet-stream";
      const fileName = storableText(part.filename || "") || "file";
      const relative = `file-lists/${listId}-${randomUUID()}${extensionOf({ mimetype: declared, fileName, data: Buffer.alloc(0) })}`;
      const stored = await storage.writeUpload(companyId, relative, part.file, config.maxUploadBytes);
      const mimetype = checkedMimetype(await storage.head(companyId, stored.path, 16), declared);
      files.push({ path: stored.path, fileName, mimetype });
    }
    if (files.length === 0) throw new AppError("ERR_VALIDATION", { issues: [{ path: "files", message: V.required }] });
    if (optionIds.length !== files.length) {
      throw new AppError("ERR_VALIDATION", { issues: [{ path: "id", message: V.required }] });
    }
  } catch (err) {
    for (const f of files) await storage.remove(companyId, f.path);
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    throw new AppError(code === "FST_REQ_FILE_TOO_LARGE" ? "ERR_FILE_TOO_LARGE" : "ERR_BAD_REQUEST");
  }
  return files.map((file, n) => ({ ...file, optionId: optionIds[n] }));
}

/** File lists (secondary §2, §7): an administration item (files.manage); campaigns send their files first. */
export async function fileListsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "files.manage" } as const;

  r.get(
    "/files",
    { schema: { querystring: PageQuery }, config: use },
    (req): Promise<FileListsPage> => pageFileLists(scopedFor(req), req.query.searchParam, req.query.pageNumber),
  );
  r.get("/files/:id", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await findFileListView(scopedFor(req), req.params.id), "ERR_NO_FILE_LIST_FOUND"),
  );
  r.post("/files", { schema: { body: FileListForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createFileList(req.ctx, req.body)),
  );
  r.put("/files/:id", { schema: { params: IdParams, body: FileListForm }, config: use }, (req) =>
    updateFileList(req.ctx, req.params.id, req.body),
  );
  r.delete("/files/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    await deleteFileList(req.ctx, req.params.id);
    return reply.status(204).send();
  });
  r.post("/files/uploadList/:fileId", { schema: { params: z.object({ fileId: IdSchema }) }, config: use }, async (req) => {
    found(await scopedFor(req).fileLists.findById(req.params.fileId), "ERR_NO_FILE_LIST_FOUND");
    return attachOptionFiles(req.ctx, req.params.fileId, await readOptionFiles(req, req.params.fileId));
  });
  /** An option's file, to its own company's staff only. */
  r.get(
    "/files/:id/options/:optionId/file",
    { schema: { params: z.object({ id: IdSchema, optionId: IdSchema }) }, config: use },
    async (req, reply) => {
      const option = found(await findOption(scopedFor(req), req.params.id, req.params.optionId), "ERR_NO_FILE_LIST_OPTION_FOUND");
      return replyWithCompanyFile(req, reply, { path: option.path, name: option.fileName }, "ERR_NOT_FOUND");
    },
  );
}
