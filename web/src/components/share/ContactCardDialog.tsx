import type { ContactCard } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialogActions } from "../form/FormDialogActions";
import { FormTextField } from "../form/FormTextField";
import { ContactCardFormSchema, type ContactCardValues } from "./share-form";

type Props = {
  open: boolean;
  onClose: () => void;
  /** Resolves true when it went out (the dialog then closes and forgets what was typed). */
  onSend: (card: ContactCard) => Promise<boolean>;
  /** `{testId}-dialog`, `{testId}-name`, … for the browser tests of each screen using it. */
  testId: string;
  /** What the dialog opens with (an agent may start from a contact of the company). */
  initial?: ContactCardValues;
};

const empty: ContactCardValues = { name: "", number: "" };

/** Sharing a contact card: a name and a phone number. */
export function ContactCardDialog({ open, onClose, onSend, testId, initial }: Props) {
  const { t } = useTranslation();
  const form = useForm<ContactCardValues, unknown, ContactCard>({
    resolver: zodResolver(ContactCardFormSchema),
    defaultValues: initial ?? empty,
  });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    if (await onSend(values)) {
      form.reset(empty);
      onClose();
    }
  });

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      slotProps={{
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": `${testId}-dialog` } as object,
      }}
    >
      <DialogTitle>{t("share.contact.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <FormTextField
          control={form.control}
          name="name"
          label={t("share.contact.name")}
          autoFocus
          autoComplete="off"
          fullWidth
          testId={`${testId}-name`}
        />
        <FormTextField
          control={form.control}
          name="number"
          label={t("share.contact.number")}
          type="tel"
          autoComplete="off"
          fullWidth
          testId={`${testId}-number`}
        />
      </DialogContent>
      <FormDialogActions onCancel={onClose} busy={busy} submitLabel={t("actions.send")} submitTestId={`${testId}-send`} />
    </Dialog>
  );
}
