import TextField from "@mui/material/TextField";

type Props = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: boolean;
  testId?: string;
  disabled?: boolean;
  size?: "small" | "medium";
  sx?: { width?: number | string };
};

/** Digits as typed become HH:mm ("0830" → "08:30"); the colon is never typed. */
export function maskTime(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/** A masked HH:mm input (core §2 Horarios). */
export function TimeField({ label, value, onChange, error, testId, disabled, size = "small", sx }: Props) {
  return (
    <TextField
      size={size}
      label={label}
      value={value}
      error={error}
      disabled={disabled}
      onChange={(event) => onChange(maskTime(event.target.value))}
      placeholder="HH:mm"
      sx={{ width: 110, ...sx }}
      slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 5, "data-testid": testId } }}
    />
  );
}
