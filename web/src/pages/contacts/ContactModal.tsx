import { ContactForm, type ContactView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { contactCollection } from "../../api/contacts";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { FormTextField } from "../../components/form/FormTextField";
import { ExtraInfoFields } from "./ExtraInfoFields";
import { type ContactFormValues, formValuesOf } from "./contact-form";

type Props = {
  open: boolean;
  contactId: number | null;
  onClose: () => void;
  /** A new contact's name typed elsewhere (the new-ticket modal's search). */
  initialName?: string;
  /** Told the saved contact, before the dialog closes. */
  onSaved?: (contact: ContactView) => void;
};

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

/** core §2 Contacts page, §5 Contact: create or edit a contact with its extra information. */
export function ContactModal({ open, contactId, onClose, initialName, onSaved }: Props) {
  const { t } = useTranslation("contacts");
  const isNew = contactId === null;
  const existing = contactCollection.useRecord(contactId);
  const save = contactCollection.useSave();

  const defaults = useMemo(() => ({ ...formValuesOf(), name: initialName ?? "" }), [initialName]);
  const loaded = useMemo(() => (existing.data ? formValuesOf(existing.data) : null), [existing.data]);

  // The contract's schema validates here exactly as the API does; its output (digits-only number) is sent.
  // ERR_DUPLICATED_CONTACT and the other codes read best as the shared error toast (core §8).
  const submit = async (values: ContactFormValues) => {
    const saved = await save.mutateAsync({ id: contactId, values });
    toast.success(t("toasts.saved"));
    onSaved?.(saved);
    onClose();
  };

  return (
    <FormDialog<ContactFormValues>
      open={open}
      onClose={onClose}
      title={t(isNew ? "modal.titleAdd" : "modal.titleEdit")}
      testId="contact-modal"
      submitLabel={t(isNew ? "common:actions.add" : "common:actions.save")}
      submitTestId="contact-save"
      cancelTestId="contact-cancel"
      schema={ContactForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={!isNew && existing.isLoading}
      onSubmit={submit}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="name"
            label={t("modal.name")}
            autoFocus
            fullWidth
            autoComplete="off"
            testId="contact-name"
          />
          <Box sx={twoColumns}>
            <FormTextField
              control={form.control}
              name="number"
              label={t("modal.number")}
              placeholder="5215512345678"
              helperText={t("modal.numberHelp")}
              type="tel"
              autoComplete="off"
              fullWidth
              testId="contact-number"
            />
            <FormTextField
              control={form.control}
              name="email"
              label={t("modal.email")}
              type="email"
              autoComplete="off"
              fullWidth
              testId="contact-email"
            />
          </Box>
          <Divider />
          <ExtraInfoFields control={form.control} errors={form.formState.errors} disabled={form.formState.isSubmitting} />
        </>
      )}
    </FormDialog>
  );
}
