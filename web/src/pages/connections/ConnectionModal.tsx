import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialogActions } from "../../components/form/FormDialogActions";
import { toast } from "../../lib/toast";
import { type ConnectionPayload, useConnection, useSaveConnection } from "../../api/connections";
import { toastError } from "../../api/errors";
import { useQueues } from "../../api/lookups";
import { SectionLoader } from "../../components/FullPageLoader";
import { ConnectionFormFields } from "./ConnectionFormFields";
import { applyServerIssues, type ConnectionFormValues, connectionResolver, formValuesOf } from "./connection-form";

type Props = { open: boolean; connectionId: number | null; onClose: () => void };

/** core §2 Connections page, §5 Connection form: create or edit a connection. */
export function ConnectionModal({ open, connectionId, onClose }: Props) {
  const { t } = useTranslation("connections");
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const isNew = connectionId === null;
  const existing = useConnection(connectionId);
  const queues = useQueues(open);
  const save = useSaveConnection();

  const form = useForm<ConnectionFormValues, unknown, ConnectionPayload>({
    resolver: connectionResolver,
    defaultValues: formValuesOf(),
  });
  const { reset } = form;

  // Filled once from the saved connection; a live update meanwhile does not overwrite what is typed.
  const filledFor = useRef<number | null>(null);
  useEffect(() => {
    if (!existing.data || filledFor.current === existing.data.id) return;
    filledFor.current = existing.data.id;
    reset(formValuesOf(existing.data));
  }, [existing.data, reset]);

  useEffect(() => {
    if (existing.isError) toastError(existing.error);
  }, [existing.isError, existing.error]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: connectionId, values });
      toast.success(t("toasts.saved"));
      onClose();
    } catch (error) {
      applyServerIssues(error, form.setError);
      // ERR_NO_OTHER_WHATSAPP, ERR_CONNECTION_LIMIT_REACHED… read best as the shared error toast (core §8)
      toastError(error);
    }
  });

  const busy = form.formState.isSubmitting;
  const loading = !isNew && existing.isLoading;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="md"
      fullScreen={narrow}
      // The paper itself is the form, so the content keeps scrolling between a fixed title and buttons.
      slotProps={{
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": "connection-modal" } as object,
      }}
    >
      <DialogTitle>{t(isNew ? "modal.titleAdd" : "modal.titleEdit")}</DialogTitle>
      <DialogContent dividers>
        {loading ? (
          <SectionLoader />
        ) : (
          <ConnectionFormFields
            control={form.control}
            isNew={isNew}
            defaultLocked={existing.data?.isDefault ?? false}
            queues={queues.data ?? []}
          />
        )}
      </DialogContent>
      <FormDialogActions
        onCancel={onClose}
        busy={busy}
        disabled={loading}
        submitLabel={t(isNew ? "common:actions.add" : "common:actions.save")}
        cancelTestId="connection-cancel"
        submitTestId="connection-save"
      />
    </Dialog>
  );
}
