import type { FileListOptionView, FileListView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import { and, asc, count, eq, ilike, inArray, type SQL } from "drizzle-orm";
import { toCount } from "../../db/client.js";
import type { Scoped } from "../../db/scoped.js";
import { fileListOptions, fileLists } from "../../db/schema/index.js";
import { escapeLike } from "../../lib/like.js";

type ListRow = typeof fileLists.$inferSelect;
export type OptionRow = typeof fileListOptions.$inferSelect;

const optionView = (o: OptionRow): FileListOptionView => ({
  id: o.id,
  name: o.name,
  path: o.path ? o.fileName : null,
  mediaType: o.path ? o.mediaType : null,
  url: o.path ? `/api/v1/files/${o.fileListId}/options/${o.id}/file` : null,
});

/** The options of these lists, in the order they were added. */
export function optionsOf(q: Scoped, listIds: number[]): Promise<OptionRow[]> {
  if (listIds.length === 0) return Promise.resolve([]);
  return q.db
    .select()
    .from(fileListOptions)
    .where(q.fileListOptions.where(inArray(fileListOptions.fileListId, listIds)))
    .orderBy(asc(fileListOptions.id));
}

async function views(q: Scoped, rows: ListRow[]): Promise<FileListView[]> {
  const options = await optionsOf(
    q,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    message: r.message,
    options: options.filter((o) => o.fileListId === r.id).map(optionView),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function findFileListView(q: Scoped, id: number): Promise<FileListView | null> {
  const row = await q.fileLists.findById(id);
  return row ? (await views(q, [row]))[0] : null;
}

/** GET /files: 20 a page by name, searched by name. */
export async function pageFileLists(q: Scoped, search: string, pageNumber: number) {
  const where: SQL | undefined = search ? ilike(fileLists.name, `%${escapeLike(search)}%`) : undefined;
  const size = Limits.pageSize;
  const [rows, [{ n }]] = await Promise.all([
    q.db
      .select()
      .from(fileLists)
      .where(q.fileLists.where(where))
      .orderBy(asc(fileLists.name), asc(fileLists.id))
      .limit(size + 1)
      .offset((pageNumber - 1) * size),
    q.db.select({ n: count() }).from(fileLists).where(q.fileLists.where(where)),
  ]);
  return { files: await views(q, rows.slice(0, size)), hasMore: rows.length > size, count: toCount(n) };
}

/** One option of one list of the company, or null. */
export async function findOption(q: Scoped, listId: number, optionId: number): Promise<OptionRow | null> {
  const [row] = await q.db
    .select()
    .from(fileListOptions)
    .where(q.fileListOptions.where(and(eq(fileListOptions.fileListId, listId), eq(fileListOptions.id, optionId))));
  return row ?? null;
}
