import { type FileListEvent, type FileListForm, type FileListView, storableText } from "@charla/contracts";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { campaigns, fileListOptions } from "../../db/schema/index.js";
import { type AfterCommit, withTransaction } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { mediaTypeOf } from "../messages/send.js";
import { campaignAudience } from "../../policies/campaigns.js";
import { findFileListView, type OptionRow, optionsOf } from "./queries.js";

type Input = z.output<typeof FileListForm>;

/** `company-{id}-file` to the staff (the users of the files page and of campaigns), read through `q`. */
async function fileListChanged(q: Scoped, change: FileListEvent): Promise<DomainEvent<"record.changed">> {
  const audience = await campaignAudience(q, "files.manage");
  return { type: "record.changed", companyId: q.companyId, audience, area: "file", change };
}

/** Files whose rows are gone (or no longer name them), removed once that is committed. */
function removeFiles(ctx: RequestCtx, afterCommit: AfterCommit, files: { path: string | null }[]) {
  afterCommit(async () => {
    for (const f of files) if (f.path) await ctx.storage.remove(ctx.companyId, f.path);
  });
}

/**
 * The form's options onto the list's: kept ones renamed, new ones added, missing ones removed (their
 * files too, once committed). An id that is not one of this list's options is not found.
 */
async function syncOptions(q: Scoped, listId: number, options: Input["options"]): Promise<OptionRow[]> {
  const current = await optionsOf(q, [listId]);
  const kept = new Set(options.filter((o) => o.id).map((o) => o.id));
  for (const o of options) {
    if (o.id && !current.some((c) => c.id === o.id)) throw new AppError("ERR_NO_FILE_LIST_OPTION_FOUND");
  }
  const gone = current.filter((c) => !kept.has(c.id));
  if (gone.length) {
    await q.db.delete(fileListOptions).where(
      q.fileListOptions.where(
        inArray(
          fileListOptions.id,
          gone.map((g) => g.id),
        ),
      ),
    );
  }
  for (const o of options) {
    if (o.id) await q.fileListOptions.update(o.id, { name: o.name });
    else await q.fileListOptions.insert({ fileListId: listId, name: o.name });
  }
  return gone;
}

export function createFileList(ctx: RequestCtx, f: Input): Promise<FileListView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const row = await q.fileLists.insert({ name: f.name, message: f.message });
    await syncOptions(q, row.id, f.options);
    const view = found(await findFileListView(q, row.id), "ERR_NO_FILE_LIST_FOUND");
    await publish(await fileListChanged(q, { action: "create", record: view }));
    return view;
  });
}

export function updateFileList(ctx: RequestCtx, id: number, f: Input): Promise<FileListView> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.fileLists.lockById(id), "ERR_NO_FILE_LIST_FOUND");
    await q.fileLists.update(id, { name: f.name, message: f.message });
    const gone = await syncOptions(q, id, f.options);
    const view = found(await findFileListView(q, id), "ERR_NO_FILE_LIST_FOUND");
    await publish(await fileListChanged(q, { action: "update", record: view }));
    removeFiles(ctx, afterCommit, gone);
    return view;
  });
}

/** The list, its options and their files; campaigns that used it go on without it. */
export function deleteFileList(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    found(await q.fileLists.lockById(id), "ERR_NO_FILE_LIST_FOUND");
    const files = await optionsOf(q, [id]);
    await tx
      .update(campaigns)
      .set({ fileListId: null })
      .where(and(eq(campaigns.companyId, ctx.companyId), eq(campaigns.fileListId, id)));
    await q.fileLists.delete(id);
    await publish(await fileListChanged(q, { action: "delete", id }));
    removeFiles(ctx, afterCommit, files);
  });
}

export type UploadedOption = { optionId: number; path: string; fileName: string; mimetype: string };

/**
 * POST /files/uploadList/{fileId}: each uploaded file onto its option (replacing the old file, removed
 * once committed). Any option that is not the list's refuses the whole upload, its files removed.
 */
export async function attachOptionFiles(ctx: RequestCtx, listId: number, uploads: UploadedOption[]): Promise<FileListView> {
  try {
    return await withTransaction(ctx, async (tx, { publish, afterCommit }) => {
      const q = scoped(tx, ctx.companyId);
      found(await q.fileLists.lockById(listId), "ERR_NO_FILE_LIST_FOUND");
      const current = await optionsOf(q, [listId]);
      const replaced: { path: string }[] = [];
      for (const u of uploads) {
        const option = current.find((c) => c.id === u.optionId);
        if (!option) throw new AppError("ERR_NO_FILE_LIST_OPTION_FOUND");
        if (option.path) replaced.push({ path: option.path });
        await q.fileListOptions.update(option.id, {
          path: u.path,
          fileName: storableText(u.fileName).trim().slice(0, 255) || "file",
          mimetype: u.mimetype,
          mediaType: mediaTypeOf(u.mimetype),
        });
        // an option named twice keeps the last file; the earlier one goes with the replaced
        option.path = u.path;
      }
      await q.fileLists.update(listId, {});
      const view = found(await findFileListView(q, listId), "ERR_NO_FILE_LIST_FOUND");
      await publish(await fileListChanged(q, { action: "update", record: view }));
      removeFiles(ctx, afterCommit, replaced);
      return view;
    });
  } catch (err) {
    for (const u of uploads) await ctx.storage.remove(ctx.companyId, u.path);
    throw err;
  }
}
