import type { FileListForm, FileListView } from "@charla/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { defineCollection } from "./collection";

export type { FileListView };

/** secondary §7 File lists: 20 a page by name, searched by name; `company-{id}-file` keeps it live. */
export const fileListCollection = defineCollection<FileListView, FileListForm>({
  name: "file-lists",
  path: "/files",
  pageField: "files",
  matches: (list, search) => list.name.toLowerCase().includes(search.trim().toLowerCase()),
  order: (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id,
  live: { channel: "file", item: "record", idField: "id" },
});

/** POST /files/uploadList/{fileId} with secondary §7's fields: the n-th file goes to the n-th id's option. */
export function useUploadOptionFiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, files }: { listId: number; files: { optionId: number; name: string; file: File }[] }) => {
      const form = new FormData();
      form.append("fileId", String(listId));
      form.append("typeArch", "fileList");
      for (const f of files) {
        form.append("files", f.file);
        form.append("mediaType", f.file.type);
        form.append("name", f.name);
        form.append("id", String(f.optionId));
      }
      return api<FileListView>(`/files/uploadList/${listId}`, { method: "POST", body: form });
    },
    onSuccess: (list) => fileListCollection.upsert(client, list),
  });
}
