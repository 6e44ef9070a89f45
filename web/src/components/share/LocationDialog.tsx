import type { SharedLocation } from "@charla/contracts";
import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../form/FormTextField";
import { FormDialog } from "../list-kit/FormDialog";
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
  return (
    <FormDialog<LocationFormValues>
      open={open}
      onClose={onClose}
      title={t("share.location.title")}
      testId={`${testId}-dialog`}
      submitLabel={t("actions.send")}
      submitTestId={`${testId}-send`}
      schema={LocationFormSchema}
      defaultValues={defaults}
      maxWidth="xs"
      onSubmit={async (values, form) => {
        if (!(await onSend(toSharedLocation(values)))) return;
        form.reset(defaults);
        onClose();
      }}
    >
      {(form) => (
        <>
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
        </>
      )}
    </FormDialog>
  );
}
