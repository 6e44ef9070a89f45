import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import { useEffect, useRef, useState } from "react";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateField } from "../../components/form/DateField";
import { TimeField } from "../../components/schedules/TimeField";
import { validationText } from "../../lib/validation";
import type { CampaignValues } from "./campaign-form";
import { fromLocalInput, toLocalInput } from "./campaign-rules";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A date without its time, or the reverse: no instant, so the form's schema refuses it (V.invalid). */
const INCOMPLETE = "incomplete";

type PickerProps = {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  error?: string;
};

/**
 * "Programar para" as DD/MM/AAAA and HH:mm, the pickers the rest of the web uses (issue 26: the
 * browser's datetime input drew mm/dd/yyyy in an English Chromium). The instant is the browser's
 * local time with its offset; both empty keeps the campaign a draft.
 */
function SchedulePicker({ value, onChange, disabled, error }: PickerProps) {
  const { t } = useTranslation("campaigns");
  const local = toLocalInput(value);
  const [date, setDate] = useState(local.slice(0, 10));
  const [time, setTime] = useState(local.slice(11, 16));
  const emitted = useRef(value);

  // a value from outside (the campaign loaded, the form reset) replaces what is typed
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    const next = toLocalInput(value);
    setDate(next.slice(0, 10));
    setTime(next.slice(11, 16));
  }, [value]);

  const emit = (nextDate: string, nextTime: string) => {
    const result =
      !nextDate && !nextTime ? "" : nextDate && HH_MM.test(nextTime) ? fromLocalInput(`${nextDate}T${nextTime}`) : INCOMPLETE;
    emitted.current = result;
    onChange(result);
  };

  return (
    <Box>
      <Box sx={{ display: "flex", gap: 2 }}>
        <DateField
          label={t("modal.scheduledAt")}
          value={date}
          onChange={(next) => {
            setDate(next);
            emit(next, time);
          }}
          disabled={disabled}
          size="medium"
          testId="campaign-scheduled-date"
          pickLabel={t("modal.pickDate")}
          sx={{ width: "100%" }}
        />
        <TimeField
          label={t("modal.scheduledTime")}
          value={time}
          onChange={(next) => {
            setTime(next);
            emit(date, next);
          }}
          error={Boolean(error)}
          disabled={disabled}
          size="medium"
          testId="campaign-scheduled-time"
          sx={{ width: 130 }}
        />
      </Box>
      <FormHelperText error={Boolean(error)} sx={{ mx: 1.75 }} data-testid="campaign-scheduled-help">
        {error ?? (disabled ? "" : t("modal.scheduledAtHelp"))}
      </FormHelperText>
    </Box>
  );
}

/** scheduledAt in the browser's local time; empty keeps the campaign a draft. */
export function ScheduleField({ control, disabled }: { control: Control<CampaignValues>; disabled: boolean }) {
  return (
    <Controller
      name="scheduledAt"
      control={control}
      render={({ field, fieldState }) => (
        <SchedulePicker
          value={field.value}
          onChange={field.onChange}
          disabled={disabled}
          error={validationText(fieldState.error?.message)}
        />
      )}
    />
  );
}
