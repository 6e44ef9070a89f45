import CalendarIcon from "@mui/icons-material/CalendarMonthOutlined";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect, useRef, useState } from "react";

type Props = {
  label: string;
  /** YYYY-MM-DD, or "" for none. */
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  testId?: string;
  pickLabel: string;
  disabled?: boolean;
  /** "medium" beside a form's full-size fields; the dashboard's filter bar is small. */
  size?: "small" | "medium";
  /** Wider than the dashboard's filter where the form has room (e.g. `width: "100%"`). */
  sx?: { width?: number | string };
};

/** Digits as typed become DD/MM/YYYY ("01112026" → "01/11/2026"); the slashes are never typed. */
export function maskDate(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join("/");
}

const shown = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.split("-").reverse().join("/") : "");

/** DD/MM/YYYY as YYYY-MM-DD when it is a real date, else null. */
export function isoOfShown(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/**
 * A date typed as DD/MM/YYYY in every language (secondary §1), with the browser's calendar one click
 * away. A native date input draws the browser's own locale (MM/DD/YYYY in an English Chromium), so
 * the typed field is ours and the native one only opens the calendar.
 */
export function DateField({ label, value, onChange, min, max, testId, pickLabel, disabled, size = "small", sx }: Props) {
  const [text, setText] = useState(() => shown(value));
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setText((current) => (isoOfShown(current) === value ? current : shown(value)));
  }, [value]);
  const iso = isoOfShown(text);
  const outOfRange = iso !== null && ((min && iso < min) || (max && iso > max));
  const invalid = text.length === 10 && (iso === null || Boolean(outOfRange));

  const type = (raw: string) => {
    const next = maskDate(raw);
    setText(next);
    // an emptied field is "no date", which the dashboard's filter must hear to say "Parametrize o filtro"
    if (next === "") return onChange("");
    const parsed = isoOfShown(next);
    if (parsed && !((min && parsed < min) || (max && parsed > max))) onChange(parsed);
  };

  return (
    <TextField
      size={size}
      label={label}
      value={text}
      error={invalid}
      disabled={disabled}
      onChange={(event) => type(event.target.value)}
      placeholder="DD/MM/AAAA"
      sx={{ width: 190, ...sx }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: "numeric", maxLength: 10, "data-testid": testId },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                edge="end"
                aria-label={pickLabel}
                disabled={disabled}
                data-testid={testId ? `${testId}-pick` : undefined}
                onClick={() => picker.current?.showPicker?.()}
              >
                <CalendarIcon fontSize="small" />
              </IconButton>
              <input
                ref={picker}
                type="date"
                tabIndex={-1}
                aria-hidden
                value={value}
                min={min}
                max={max}
                onChange={(event) => {
                  if (!event.target.value) return;
                  setText(shown(event.target.value));
                  onChange(event.target.value);
                }}
                style={{ position: "absolute", right: 0, bottom: 0, width: 1, height: 1, opacity: 0, border: 0, padding: 0 }}
              />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
