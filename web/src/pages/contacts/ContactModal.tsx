import { ContactForm, type ContactView } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import type { z } from "zod";
import { useContact, useSaveContact } from "../../api/contacts";
import { toastError } from "../../api/errors";
import { SectionLoader } from "../../components/FullPageLoader";
import { FormDialogActions } from "../../components/form/FormDialogActions";
import { FormTextField } from "../../components/form/FormTextField";
import { ExtraInfoFields } from "./ExtraInfoFields";
import { applyServerIssues, type ContactFormValues, formValuesOf } from "./contact-form";

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
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const isNew = contactId === null;
  const existing = useContact(contactId);
  const save = useSaveContact();

  // The contract's schema validates here exactly as the API does; its output (digits-only number) is sent.
  const form = useForm<ContactFormValues, unknown, z.output<typeof ContactForm>>({
    resolver: zodResolver(ContactForm),
    defaultValues: { ...formValuesOf(), name: initialName ?? "" },
  });
  const { reset } = form;

  useEffect(() => {
    if (existing.data) reset(formValuesOf(existing.data));
  }, [existing.data, reset]);

  useEffect(() => {
    if (existing.isError) toastError(existing.error);
  }, [existing.isError, existing.error]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ id: contactId, values });
      toast.success(t("toasts.saved"));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      applyServerIssues(error, form.setError);
      // ERR_DUPLICATED_CONTACT and the other codes read best as the shared error toast (core §8).
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
      maxWidth="sm"
      fullScreen={narrow}
      // The paper itself is the form, so the content keeps scrolling between a fixed title and buttons.
      slotProps={{
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": "contact-modal" } as object,
      }}
    >
      <DialogTitle>{t(isNew ? "modal.titleAdd" : "modal.titleEdit")}</DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
        {loading ? (
          <SectionLoader />
        ) : (
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
            <ExtraInfoFields control={form.control} errors={form.formState.errors} disabled={busy} />
          </>
        )}
      </DialogContent>
      <FormDialogActions
        onCancel={onClose}
        busy={busy}
        disabled={loading}
        submitLabel={t(isNew ? "common:actions.add" : "common:actions.save")}
        cancelTestId="contact-cancel"
        submitTestId="contact-save"
      />
    </Dialog>
  );
}
