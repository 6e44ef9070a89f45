import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { toast } from "../../lib/toast";
import { ConfirmDialog } from "../ConfirmDialog";

export type DeleteAction<T> = {
  /** Rows that may not be deleted (oneself, the main company…) get no delete button. */
  allowed?: (row: T) => boolean;
  title: (row: T) => string;
  message: string;
  run: (row: T) => Promise<unknown>;
  /** The toast once deleted. */
  done: string;
};

/** A row's delete, asked first (core §8 confirm dialogs); the dialog keeps its row while it closes. */
export function useConfirmDelete<T>(action: DeleteAction<T> | undefined) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!action || target === null) return;
    setBusy(true);
    try {
      await action.run(target);
      toast.success(action.done);
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  const dialog = action ? (
    <ConfirmDialog
      open={open}
      title={target === null ? "" : action.title(target)}
      confirmLabel={t("common:actions.delete")}
      busy={busy}
      onConfirm={() => void confirm()}
      onClose={() => setOpen(false)}
    >
      {action.message}
    </ConfirmDialog>
  ) : null;

  return {
    ask: (row: T) => {
      setTarget(row);
      setOpen(true);
    },
    dialog,
  };
}
