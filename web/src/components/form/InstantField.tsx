import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import { useEffect, useRef, useState } from "react";
import { TimeField } from "../schedules/TimeField";
import { DateField } from "./DateField";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A date without its time, or the reverse: no instant, so the form's schema refuses it (V.invalid). */
export const INCOMPLETE_INSTANT = "incomplete";

export type InstantParts = { date: string; time: string };

type Props = {
  /** ISO instant, "" (none) or INCOMPLETE_INSTANT. */
  value: string;
  onChange: (value: string) => void;
  /** How the instant reads as a date and an hour (the browser's clock, or the company's zone), and back. */
  toParts: (iso: string) => InstantParts;
  fromParts: (parts: InstantParts) => string;
  /** Both left empty means "no instant" (""), e.g. a campaign kept as a draft; else it is incomplete. */
  allowEmpty?: boolean;
  disabled: boolean;
  error?: string;
  help: string;
  labels: { date: string; time: string; pick: string };
  testIds: { date: string; time: string; help?: string };
};

/**
 * An instant as DD/MM/AAAA and HH:mm, the pickers the rest of the web uses (issue 26: the browser's
 * datetime input drew mm/dd/yyyy in an English Chromium). Campaigns and schedules read it on
 * different clocks, hence `toParts`/`fromParts`.
 */
export function InstantField({ value, onChange, toParts, fromParts, allowEmpty, disabled, error, help, labels, testIds }: Props) {
  const start = value && value !== INCOMPLETE_INSTANT ? toParts(value) : { date: "", time: "" };
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const emitted = useRef(value);

  // a value from outside (the record loaded, the form reset) replaces what is typed
  useEffect(() => {
    if (value === emitted.current || value === INCOMPLETE_INSTANT) return;
    emitted.current = value;
    const next = value ? toParts(value) : { date: "", time: "" };
    setDate(next.date);
    setTime(next.time);
  }, [value, toParts]);

  const emit = (d: string, tm: string) => {
    const result = allowEmpty && !d && !tm ? "" : d && HH_MM.test(tm) ? fromParts({ date: d, time: tm }) : INCOMPLETE_INSTANT;
    emitted.current = result;
    onChange(result);
  };

  return (
    <Box>
      <Box sx={{ display: "flex", gap: 2 }}>
        <DateField
          label={labels.date}
          value={date}
          onChange={(next) => {
            setDate(next);
            emit(next, time);
          }}
          disabled={disabled}
          size="medium"
          testId={testIds.date}
          pickLabel={labels.pick}
          sx={{ width: "100%" }}
        />
        <TimeField
          label={labels.time}
          value={time}
          onChange={(next) => {
            setTime(next);
            emit(date, next);
          }}
          error={Boolean(error)}
          disabled={disabled}
          size="medium"
          testId={testIds.time}
          sx={{ width: 130 }}
        />
      </Box>
      <FormHelperText error={Boolean(error)} sx={{ mx: 1.75 }} data-testid={testIds.help}>
        {error ?? help}
      </FormHelperText>
    </Box>
  );
}
