import { normalizeNumber } from "@charla/contracts";
import CloseIcon from "@mui/icons-material/Close";
import Autocomplete, { createFilterOptions } from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type UseFormSetValue } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { SimulatorConnection } from "../../api/simulator";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import { formatPhoneNumber } from "../../lib/phone";
import type { CustomerMessageValues } from "./simulator-form";
import type { RecentCustomer } from "./simulator-storage";

type Props = {
  connections: SimulatorConnection[];
  whatsappId: number | null;
  onWhatsappChange: (id: number) => void;
  control: Control<CustomerMessageValues>;
  setValue: UseFormSetValue<CustomerMessageValues>;
  recent: RecentCustomer[];
  onForget: (number: string) => void;
};

// A recent customer matches by name or by the digits of its number.
const filterRecent = createFilterOptions<RecentCustomer>({
  stringify: (option) => `${option.name} ${option.number} ${normalizeNumber(option.number)}`,
});

/** Which connection plays the phone, and which customer is typing. */
export function CustomerPanel({ connections, whatsappId, onWhatsappChange, control, setValue, recent, onForget }: Props) {
  const { t } = useTranslation("simulator");

  return (
    <Paper variant="outlined" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }} data-testid="simulator-customer">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("customer.title")}
      </Typography>
      <TextField
        select
        label={t("customer.connection")}
        value={whatsappId ?? ""}
        onChange={(event) => onWhatsappChange(Number(event.target.value))}
        fullWidth
        disabled={connections.length === 0}
        slotProps={{ select: { SelectDisplayProps: { "data-testid": "simulator-connection" } as object } }}
      >
        {connections.map((connection) => (
          <MenuItem key={connection.id} value={connection.id} data-testid={`simulator-connection-${connection.id}`}>
            {connection.name}
          </MenuItem>
        ))}
      </TextField>
      <Controller
        name="number"
        control={control}
        render={({ field, fieldState }) => (
          <Autocomplete<RecentCustomer, false, false, true>
            freeSolo
            openOnFocus
            options={recent}
            value={null}
            inputValue={field.value}
            onInputChange={(_, value) => field.onChange(value)}
            onChange={(_, option) => {
              if (option === null) return;
              if (typeof option === "string") {
                field.onChange(option);
                return;
              }
              field.onChange(option.number);
              setValue("name", option.name, { shouldValidate: true });
            }}
            filterOptions={filterRecent}
            getOptionLabel={(option) => (typeof option === "string" ? option : option.number)}
            noOptionsText={t("customer.noRecent")}
            renderOption={({ key, ...props }, option) => (
              <Box
                component="li"
                key={key}
                {...props}
                sx={{ display: "flex", alignItems: "center", gap: 1 }}
                data-testid="simulator-recent"
              >
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" noWrap>
                    {option.name || formatPhoneNumber(normalizeNumber(option.number))}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" noWrap component="div">
                    {formatPhoneNumber(normalizeNumber(option.number))}
                  </Typography>
                </Box>
                <IconButton
                  size="small"
                  aria-label={t("customer.forget")}
                  onClick={(event) => {
                    event.stopPropagation();
                    onForget(option.number);
                  }}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Box>
            )}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t("customer.number")}
                placeholder="5215512345678"
                type="tel"
                error={!!fieldState.error}
                helperText={validationText(fieldState.error?.message) ?? t("customer.numberHelp")}
                onBlur={field.onBlur}
                inputRef={field.ref}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, "data-testid": "simulator-number", autoComplete: "off" },
                }}
              />
            )}
          />
        )}
      />
      <FormTextField
        control={control}
        name="name"
        label={t("customer.name")}
        helperText={t("customer.nameHelp")}
        autoComplete="off"
        fullWidth
        testId="simulator-name"
      />
    </Paper>
  );
}
