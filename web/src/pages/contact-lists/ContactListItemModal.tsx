import { ContactListItemForm, type ContactListItemView } from "@charla/contracts";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { contactListItemCollection } from "../../api/contact-lists";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

type Values = { name: string; number: string; email: string };

const valuesOf = (item?: ContactListItemView): Values => ({
  name: item?.name ?? "",
  number: item?.number ?? "",
  email: item?.email ?? "",
});

type Props = { listId: number; itemId: number | null; onClose: () => void };

/**
 * secondary §5 ContactListItem: name (2 to 50), number (digits with the country code; the server also
 * refuses one no country has: validation.invalidPhone on the field) and an optional email.
 */
export function ContactListItemModal({ listId, itemId, onClose }: Props) {
  const { t } = useTranslation("contact-lists");
  const items = contactListItemCollection(listId);
  const existing = items.useRecord(itemId);
  const save = items.useSave();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);

  // the schema's output is sent: the number as its digits, a missing email as ""
  const submit = async (values: Values) => {
    await save.mutateAsync({ id: itemId, values: itemId === null ? { ...values, contactListId: listId } : values });
    toast.success(t("items.toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(itemId === null ? "items.modal.titleAdd" : "items.modal.titleEdit")}
      testId="contact-list-item-modal"
      submitLabel={t(itemId === null ? "common:actions.add" : "common:actions.save")}
      schema={ContactListItemForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={itemId !== null && existing.isLoading}
      onSubmit={submit}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="name"
            label={t("items.modal.name")}
            required
            autoFocus
            fullWidth
            autoComplete="off"
            testId="contact-list-item-name"
          />
          <FormTextField
            control={form.control}
            name="number"
            label={t("items.modal.number")}
            placeholder="5215512345678"
            helperText={t("items.modal.numberHelp")}
            required
            type="tel"
            autoComplete="off"
            fullWidth
            testId="contact-list-item-number"
          />
          <FormTextField
            control={form.control}
            name="email"
            label={t("items.modal.email")}
            type="email"
            autoComplete="off"
            fullWidth
            testId="contact-list-item-email"
          />
        </>
      )}
    </FormDialog>
  );
}
