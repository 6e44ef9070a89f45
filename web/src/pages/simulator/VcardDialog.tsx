import { zodResolver } from "@hookform/resolvers/zod";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialogActions } from "../../components/form/FormDialogActions";
import { FormTextField } from "../../components/form/FormTextField";
import { VcardSchema, type VcardValues } from "./simulator-form";

type VcardOutput = z.output<typeof VcardSchema>;
type Props = { open: boolean; onClose: () => void; onSend: (vcard: VcardOutput) => Promise<boolean> };

const defaults: VcardValues = { name: "", number: "" };

/** The customer shares a contact card (name and number). */
export function VcardDialog({ open, onClose, onSend }: Props) {
  const { t } = useTranslation("simulator");
  const form = useForm<VcardValues, unknown, VcardOutput>({ resolver: zodResolver(VcardSchema), defaultValues: defaults });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    if (await onSend(values)) {
      form.reset(defaults);
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
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": "simulator-vcard-dialog" } as object,
      }}
    >
      <DialogTitle>{t("vcard.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <FormTextField
          control={form.control}
          name="name"
          label={t("vcard.name")}
          autoFocus
          autoComplete="off"
          fullWidth
          testId="simulator-vcard-name"
        />
        <FormTextField
          control={form.control}
          name="number"
          label={t("vcard.number")}
          type="tel"
          autoComplete="off"
          fullWidth
          testId="simulator-vcard-number"
        />
      </DialogContent>
      <FormDialogActions onCancel={onClose} busy={busy} submitLabel={t("composer.send")} submitTestId="simulator-vcard-send" />
    </Dialog>
  );
}
