import { ConnectionForm } from "@charla/contracts";
import { useMemo, useState } from "react";
import type { FieldPath, UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { useConnection, useSaveConnection } from "../../api/connections";
import { errorText } from "../../api/errors";
import { useQueues } from "../../api/lookups";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { ConnectionFormFields } from "./ConnectionFormFields";
import { type ConnectionFormValues, formValuesOf, payloadOf } from "./connection-form";

/**
 * Refusals about one field, shown beside it too: the greeting several queues need, and a Cloud API
 * connection's fallback template that Meta does not list as approved or that takes another number of variables.
 */
const fieldOf: Record<string, FieldPath<ConnectionFormValues>> = {
  ERR_WAPP_GREETING_REQUIRED: "greetingMessage",
  ERR_CLOUD_TEMPLATE_NOT_FOUND: "templateName",
  ERR_CLOUD_TEMPLATE_UNSUPPORTED: "templateName",
  ERR_CLOUD_TEMPLATE_PARAMS: "templateParams",
};

type Props = { open: boolean; connectionId: number | null; onClose: () => void };

/** core §2 Connections page, §5 Connection form: create or edit a connection. */
export function ConnectionModal({ open, connectionId: givenId, onClose }: Props) {
  const { t } = useTranslation("connections");
  // a new Cloud API connection stays open once saved: its webhook URL is what Meta's app needs next
  const [connectionId, setConnectionId] = useState(givenId);
  const isNew = connectionId === null;
  const existing = useConnection(connectionId);
  const queues = useQueues(open);
  const save = useSaveConnection();
  const defaults = useMemo(() => formValuesOf(), []);
  const loaded = useMemo(() => (existing.data ? formValuesOf(existing.data) : null), [existing.data]);

  // The contract's schema validates as the API does and its output (numbers coerced) is what is sent.
  // ERR_NO_OTHER_WHATSAPP, ERR_CONNECTION_LIMIT_REACHED… read best as the shared error toast (core §8);
  // a refusal about one field (fieldOf) is also shown on it.
  const submit = async (values: ConnectionFormValues, form: UseFormReturn<ConnectionFormValues>) => {
    let saved: Awaited<ReturnType<typeof save.mutateAsync>>;
    try {
      saved = await save.mutateAsync({ id: connectionId, values: ConnectionForm.parse(payloadOf(values)) });
    } catch (error) {
      const field = error instanceof ApiError ? fieldOf[error.code ?? ""] : undefined;
      if (field) form.setError(field, { type: "server", message: errorText(error) }, { shouldFocus: true });
      throw error;
    }
    toast.success(t("toasts.saved"));
    if (isNew && saved.provider === "cloud") {
      setConnectionId(saved.id);
      return;
    }
    onClose();
  };

  return (
    <FormDialog<ConnectionFormValues>
      open={open}
      onClose={onClose}
      title={t(isNew ? "modal.titleAdd" : "modal.titleEdit")}
      testId="connection-modal"
      submitLabel={t(isNew ? "common:actions.add" : "common:actions.save")}
      submitTestId="connection-save"
      cancelTestId="connection-cancel"
      schema={ConnectionForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={!isNew && existing.isLoading}
      onSubmit={submit}
      maxWidth="md"
    >
      {(form) => (
        <ConnectionFormFields
          control={form.control}
          isNew={isNew}
          defaultLocked={existing.data?.isDefault ?? false}
          queues={queues.data ?? []}
          cloud={existing.data?.cloud ?? null}
        />
      )}
    </FormDialog>
  );
}
