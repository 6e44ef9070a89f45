import { CheckoutCountries } from "@charla/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import type { CheckoutValues } from "./checkout-form";

const grid = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } } as const;

/** Step 'Dados' (secondary §5): the billing name and address; the card fields exist and are not used. */
export function BillingStep({ control }: { control: Control<CheckoutValues> }) {
  const { t } = useTranslation("financeiro");
  const label = (field: string) => t(`checkout.billing.${field}`);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="checkout-billing">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {label("title")}
      </Typography>
      <Box sx={grid}>
        <FormTextField
          control={control}
          name="firstName"
          label={label("firstName")}
          autoComplete="name"
          required
          testId="checkout-firstName"
        />
        <FormTextField
          control={control}
          name="lastName"
          label={label("lastName")}
          autoComplete="family-name"
          testId="checkout-lastName"
        />
      </Box>
      <FormTextField
        control={control}
        name="address2"
        label={label("address2")}
        autoComplete="street-address"
        required
        fullWidth
        testId="checkout-address2"
      />
      <Box sx={grid}>
        <FormTextField
          control={control}
          name="city"
          label={label("city")}
          autoComplete="address-level2"
          required
          testId="checkout-city"
        />
        <FormTextField
          control={control}
          name="state"
          label={label("state")}
          autoComplete="address-level1"
          testId="checkout-state"
        />
        <FormTextField
          control={control}
          name="zipcode"
          label={label("zipcode")}
          autoComplete="postal-code"
          required
          testId="checkout-zipcode"
        />
        <Controller
          name="country"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              select
              required
              label={label("country")}
              value={field.value ?? ""}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={!!fieldState.error}
              helperText={validationText(fieldState.error?.message)}
              slotProps={{ select: { SelectDisplayProps: { "data-testid": "checkout-country" } as object } }}
            >
              {CheckoutCountries.map((country) => (
                <MenuItem key={country} value={country} data-testid={`checkout-country-${country}`}>
                  {t(`checkout.countries.${country}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Box>
      <Controller
        name="useAddressForPaymentDetails"
        control={control}
        render={({ field }) => (
          <FormControlLabel
            control={<Checkbox checked={!!field.value} onChange={(event) => field.onChange(event.target.checked)} />}
            label={label("useAddressForPaymentDetails")}
          />
        )}
      />
      <Typography variant="subtitle2" color="text.secondary">
        {label("card")}
      </Typography>
      <Alert severity="info" variant="outlined">
        {label("cardUnused")}
      </Alert>
      <Box sx={grid}>
        <FormTextField control={control} name="nameOnCard" label={label("nameOnCard")} disabled />
        <FormTextField control={control} name="cardNumber" label={label("cardNumber")} disabled />
        <FormTextField control={control} name="cvv" label={label("cvv")} disabled />
      </Box>
    </Box>
  );
}
