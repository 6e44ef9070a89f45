import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialogActions } from "../../components/form/FormDialogActions";
import { FormTextField } from "../../components/form/FormTextField";
import { type SharedLocation, LocationSchema, type LocationValues, toCoordinate } from "./simulator-form";

type Props = { open: boolean; onClose: () => void; onSend: (location: SharedLocation) => Promise<boolean> };

// A demo-friendly start: the Zócalo of Mexico City.
const defaults: LocationValues = { latitude: "19.4326", longitude: "-99.1332", description: "" };

/** The customer shares a location (latitude, longitude, optional description). */
export function LocationDialog({ open, onClose, onSend }: Props) {
  const { t } = useTranslation("simulator");
  const form = useForm<LocationValues>({ resolver: zodResolver(LocationSchema), defaultValues: defaults });
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    const location = {
      latitude: toCoordinate(values.latitude),
      longitude: toCoordinate(values.longitude),
      description: values.description.trim() || undefined,
    };
    if (await onSend(location)) {
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
        paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": "simulator-location-dialog" } as object,
      }}
    >
      <DialogTitle>{t("location.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: "1fr 1fr" }}>
          <FormTextField
            control={form.control}
            name="latitude"
            label={t("location.latitude")}
            autoFocus
            autoComplete="off"
            testId="simulator-location-lat"
          />
          <FormTextField
            control={form.control}
            name="longitude"
            label={t("location.longitude")}
            autoComplete="off"
            testId="simulator-location-lng"
          />
        </Box>
        <FormTextField
          control={form.control}
          name="description"
          label={t("location.description")}
          autoComplete="off"
          fullWidth
          testId="simulator-location-description"
        />
      </DialogContent>
      <FormDialogActions onCancel={onClose} busy={busy} submitLabel={t("composer.send")} submitTestId="simulator-location-send" />
    </Dialog>
  );
}
