import type { SharedLocation } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialogActions } from "../form/FormDialogActions";
import { FormTextField } from "../form/FormTextField";
import { LocationFormSchema, type LocationFormValues, toSharedLocation } from "./share-form";

type Props = {
  open: boolean;
  onClose: () => void;
  /** Resolves true when it went out (the dialog then closes and forgets what was typed). */
  onSend: (location: SharedLocation) => Promise<boolean>;
  /** `{testId}-dialog`, `{testId}-lat`, … for the browser tests of each screen using it. */
  testId: string;
};

// A demo-friendly start: the Zócalo of Mexico City.
const defaults: LocationFormValues = { latitude: "19.4326", longitude: "-99.1332", description: "" };

/** Sharing a location: latitude, longitude and an optional description (the customer's phone or an agent). */
export function LocationDialog({ open, onClose, onSend, testId }: Props) {
  const { t } = useTranslation();
  const form = useForm<LocationFormValues>({ resolver: zodResolver(LocationFormSchema), defaultValues: defaults });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    if (await onSend(toSharedLocation(values))) {
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
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": `${testId}-dialog` } as object,
      }}
    >
      <DialogTitle>{t("share.location.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: "1fr 1fr" }}>
          <FormTextField
            control={form.control}
            name="latitude"
            label={t("share.location.latitude")}
            autoFocus
            autoComplete="off"
            testId={`${testId}-lat`}
          />
          <FormTextField
            control={form.control}
            name="longitude"
            label={t("share.location.longitude")}
            autoComplete="off"
            testId={`${testId}-lng`}
          />
        </Box>
        <FormTextField
          control={form.control}
          name="description"
          label={t("share.location.description")}
          autoComplete="off"
          fullWidth
          testId={`${testId}-description`}
        />
      </DialogContent>
      <FormDialogActions onCancel={onClose} busy={busy} submitLabel={t("actions.send")} submitTestId={`${testId}-send`} />
    </Dialog>
  );
}
