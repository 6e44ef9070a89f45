import { ContactListImportLimits } from "@charla/contracts";
import { useState } from "react";
import { type ContactListImportResult, type ImportProgress, useImportContactList } from "../../api/contact-lists";
import { toastError } from "../../api/errors";

/** Where an import is: the file chosen, its bytes leaving, the server writing its rows, the outcome. */
export type ImportStage =
  | { step: "confirm"; file: File }
  | { step: "upload"; file: File; sent: number }
  | { step: "write"; file: File; progress: ImportProgress | null }
  | { step: "summary"; file: File; result: ContactListImportResult };

const busy = (stage: ImportStage | null) => stage?.step === "upload" || stage?.step === "write";

/**
 * A spreadsheet into one list: chosen → confirmed → uploaded (the bytes' progress) → written (the
 * server's `import` events on the list's channel, through `progressed`) → its summary. The stage
 * stays while the dialog closes, so its text does not change under the closing animation.
 */
export function useListImport(listId: number) {
  const importer = useImportContactList(listId);
  const [stage, setStage] = useState<ImportStage | null>(null);
  const [open, setOpen] = useState(false);

  const choose = (file: File) => {
    // refused before a 10 MB upload rather than after it
    if (file.size > ContactListImportLimits.bytes) {
      toastError({ error: "ERR_FILE_TOO_LARGE" });
      return;
    }
    setStage({ step: "confirm", file });
    setOpen(true);
  };

  const uploaded = (file: File) => (sent: number) =>
    setStage((current) => {
      if (current?.step !== "upload") return current;
      // every byte sent: the server now reads the sheet, then writes it (events say how far when large)
      return sent >= 1 ? { step: "write", file, progress: null } : { ...current, sent };
    });

  const start = async () => {
    if (stage?.step !== "confirm") return;
    const { file } = stage;
    setStage({ step: "upload", file, sent: 0 });
    try {
      const result = await importer.mutateAsync({ file, onProgress: uploaded(file) });
      setStage({ step: "summary", file, result });
    } catch (error) {
      toastError(error);
      setOpen(false);
    }
  };

  const progressed = (progress: ImportProgress) =>
    setStage((current) => (busy(current) && current ? { step: "write", file: current.file, progress } : current));

  return {
    stage,
    open,
    /** Uploading or being written. */
    working: open && busy(stage),
    choose,
    start: () => void start(),
    progressed,
    // an import under way cannot be called back: the dialog stays until its answer
    close: () => {
      if (!busy(stage)) setOpen(false);
    },
  };
}
