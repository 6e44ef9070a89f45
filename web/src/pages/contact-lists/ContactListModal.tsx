import { ContactListForm, type ContactListView } from "@charla/contracts";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { contactListCollection } from "../../api/contact-lists";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

type Values = { name: string };

const valuesOf = (list?: ContactListView): Values => ({ name: list?.name ?? "" });

/** secondary §2 Contact lists, §5 ContactList: a list's name (2 to 50). */
export function ContactListModal({ listId, onClose }: { listId: number | null; onClose: () => void }) {
  const { t } = useTranslation("contact-lists");
  const existing = contactListCollection.useRecord(listId);
  const save = contactListCollection.useSave();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);

  const submit = async (values: Values) => {
    await save.mutateAsync({ id: listId, values });
    toast.success(t("toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(listId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="contact-list-modal"
      submitLabel={t(listId === null ? "common:actions.add" : "common:actions.save")}
      schema={ContactListForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={listId !== null && existing.isLoading}
      onSubmit={submit}
      maxWidth="xs"
    >
      {(form) => (
        <FormTextField
          control={form.control}
          name="name"
          label={t("modal.name")}
          required
          autoFocus
          fullWidth
          autoComplete="off"
          testId="contact-list-name"
        />
      )}
    </FormDialog>
  );
}
