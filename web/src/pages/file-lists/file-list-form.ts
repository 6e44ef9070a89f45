import type { FileListView } from "@charla/contracts";

/** A row of the dialog: a saved option keeps its id and file; `file` is a new file to upload for it. */
export type OptionRow = { id?: number; name: string; stored: string | null; file: File | null };
export type FileListValues = { name: string; message: string; options: OptionRow[] };

export const valuesOf = (list?: FileListView): FileListValues => ({
  name: list?.name ?? "",
  message: list?.message ?? "",
  options: (list?.options ?? []).map((o) => ({ id: o.id, name: o.name, stored: o.path, file: null })),
});

export const emptyOption: OptionRow = { name: "", stored: null, file: null };

/**
 * Which saved option each chosen file goes to: a kept row has its id; the new rows are the options the
 * save added, in the order they were typed (the server adds them in that order, after the kept ones).
 */
export function filesToUpload(rows: OptionRow[], saved: FileListView): { optionId: number; name: string; file: File }[] {
  const kept = new Set(rows.filter((r) => r.id).map((r) => r.id));
  const added = saved.options.filter((o) => !kept.has(o.id));
  let next = 0;
  const out: { optionId: number; name: string; file: File }[] = [];
  for (const row of rows) {
    const optionId = row.id ?? added[next++]?.id;
    if (row.file && optionId) out.push({ optionId, name: row.name, file: row.file });
  }
  return out;
}
