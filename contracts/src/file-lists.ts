import { z } from "zod";
import { IdSchema, text, V } from "./common.js";
import { Limits } from "./limits.js";

export const FileListLimits = { nameMin: 3, options: 20, optionName: 100, message: Limits.messageBody.max } as const;

/** An option of a file list: its name; its file goes up separately (POST /files/uploadList/{fileId}). */
export const FileListOptionForm = z.object({
  /** An option already saved keeps its file; one without id is new. */
  id: IdSchema.optional(),
  name: text({ error: V.required }).trim().min(1, V.required).max(FileListLimits.optionName, V.tooLong),
});

/** secondary §5 FileList: name required, at least 3 ('nombre muy corto'); message required. */
export const FileListForm = z.object({
  name: text({ error: V.required })
    .trim()
    .min(1, V.required)
    .min(FileListLimits.nameMin, V.fileListNameShort)
    .max(Limits.name.max, V.tooLong),
  message: text({ error: V.required }).trim().min(1, V.required).max(FileListLimits.message, V.tooLong),
  options: z.array(FileListOptionForm).max(FileListLimits.options, V.tooLong).optional().default([]),
});
export type FileListForm = z.input<typeof FileListForm>;

/** secondary §3 FileList option; `url` serves its file (GET /files/{id}/options/{optionId}/file). */
export type FileListOptionView = {
  id: number;
  name: string;
  /** Stored file name as uploaded; null until a file is uploaded. */
  path: string | null;
  mediaType: string | null;
  url: string | null;
};
export type FileListView = {
  id: number;
  name: string;
  message: string;
  options: FileListOptionView[];
  createdAt: string;
  updatedAt: string;
};
export type FileListsPage = { files: FileListView[]; hasMore: boolean; count: number };

/** `company-{id}-file` (secondary §7). */
export type FileListEvent = { action: "create" | "update"; record: FileListView } | { action: "delete"; id: number };
