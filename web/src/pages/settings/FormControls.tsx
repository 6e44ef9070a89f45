import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { DateField } from "../../components/form/DateField";
import { validationText } from "../../lib/validation";

type Base<T extends FieldValues> = { control: Control<T>; name: FieldPath<T>; label: string; testId: string };

/** A select bound to the form; `{testId}` on the box that opens it, `{testId}-{value}` on each option. */
export function FormSelect<T extends FieldValues>({
  control,
  name,
  label,
  testId,
  options,
  required,
}: Base<T> & { options: { value: string | number; label: string }[]; required?: boolean }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          required={required}
          label={label}
          value={field.value ?? ""}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={!!fieldState.error}
          helperText={validationText(fieldState.error?.message)}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": testId } as object } }}
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value} data-testid={`${testId}-${option.value}`}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** An on/off switch bound to the form; `{testId}` on its checkbox. */
export function FormSwitch<T extends FieldValues>({ control, name, label, testId }: Base<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          control={
            <Switch
              checked={Boolean(field.value)}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              slotProps={{ input: { "data-testid": testId } as object }}
            />
          }
        />
      )}
    />
  );
}

/** A DD/MM/YYYY date bound to the form as YYYY-MM-DD ("" for none). */
export function FormDate<T extends FieldValues>({ control, name, label, testId, pickLabel }: Base<T> & { pickLabel: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <DateField
          label={label}
          value={field.value ?? ""}
          onChange={field.onChange}
          testId={testId}
          pickLabel={pickLabel}
          size="medium"
          sx={{ width: "100%" }}
        />
      )}
    />
  );
}

const fullHex = (value: string) => {
  const v = value.trim();
  if (/^#[0-9a-f]{6}$/i.test(v)) return v;
  if (/^#[0-9a-f]{3}$/i.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join("")}`;
  return "#000000";
};

/**
 * A colour as text (#RRGGBB) whose swatch opens the browser's colour picker: the company form's
 * colours, where the 50-colour palette of the areas would take half the screen.
 */
export function FormColor<T extends FieldValues>({ control, name, label, testId }: Base<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          fullWidth
          label={label}
          value={field.value ?? ""}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={!!fieldState.error}
          helperText={validationText(fieldState.error?.message)}
          slotProps={{
            htmlInput: { "data-testid": testId, maxLength: 9 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Box
                    component="input"
                    type="color"
                    aria-label={label}
                    value={fullHex(String(field.value ?? ""))}
                    onChange={(event) => field.onChange((event.target as HTMLInputElement).value)}
                    data-testid={`${testId}-picker`}
                    sx={{
                      width: 28,
                      height: 28,
                      p: 0,
                      border: 1,
                      borderColor: "divider",
                      borderRadius: 0.75,
                      bgcolor: "transparent",
                      cursor: "pointer",
                      "&::-webkit-color-swatch-wrapper": { p: 0 },
                      "&::-webkit-color-swatch": { border: 0, borderRadius: 0.5 },
                    }}
                  />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
