import FormControlLabel from "@mui/material/FormControlLabel";
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
