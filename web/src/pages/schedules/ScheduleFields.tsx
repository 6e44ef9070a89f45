import { SCHEDULE_REPEATS } from "@charla/contracts";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import { useEffect, useRef, useState } from "react";
import { type Control, Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DateField } from "../../components/form/DateField";
import { TimeField } from "../../components/schedules/TimeField";
import { validationText } from "../../lib/validation";
import type { ScheduleValues } from "./ScheduleModal";
import { isoToZoned, zonedToIso } from "./zone";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A date without its time, or the reverse: no instant, so the form's schema refuses it. */
const INCOMPLETE = "incomplete";

type PickerProps = { value: string; onChange: (v: string) => void; zone: string; disabled: boolean; error?: string };

/** DD/MM/AAAA and HH:mm read on the company's clock (its zone), whatever the browser's zone. */
function ZonedPicker({ value, onChange, zone, disabled, error }: PickerProps) {
  const { t } = useTranslation("schedules");
  const start = value && value !== INCOMPLETE ? isoToZoned(value, zone) : { date: "", time: "" };
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const emitted = useRef(value);
  // a value from outside (the schedule loaded, the form reset) replaces what is typed
  useEffect(() => {
    if (value === emitted.current || value === INCOMPLETE) return;
    emitted.current = value;
    const next = isoToZoned(value, zone);
    setDate(next.date);
    setTime(next.time);
  }, [value, zone]);
  const emit = (d: string, tm: string) => {
    const result = d && HH_MM.test(tm) ? zonedToIso(d, tm, zone) : INCOMPLETE;
    emitted.current = result;
    onChange(result);
  };
  return (
    <Box>
      <Box sx={{ display: "flex", gap: 2 }}>
        <DateField
          label={t("modal.date")}
          value={date}
          onChange={(next) => {
            setDate(next);
            emit(next, time);
          }}
          disabled={disabled}
          size="medium"
          testId="schedule-date"
          pickLabel={t("modal.pickDate")}
          sx={{ width: "100%" }}
        />
        <TimeField
          label={t("modal.time")}
          value={time}
          onChange={(next) => {
            setTime(next);
            emit(date, next);
          }}
          error={Boolean(error)}
          disabled={disabled}
          size="medium"
          testId="schedule-time"
          sx={{ width: 130 }}
        />
      </Box>
      <FormHelperText error={Boolean(error)} sx={{ mx: 1.75 }}>
        {error ?? t("modal.zone", { zone })}
      </FormHelperText>
    </Box>
  );
}

export function WhenFields({ control, zone, disabled }: { control: Control<ScheduleValues>; zone: string; disabled: boolean }) {
  return (
    <Controller
      name="sendAt"
      control={control}
      render={({ field, fieldState }) => (
        <ZonedPicker
          value={field.value}
          onChange={field.onChange}
          zone={zone}
          disabled={disabled}
          error={validationText(fieldState.error?.message)}
        />
      )}
    />
  );
}

/** None, daily, weekly on chosen days (0 Sunday … 6 Saturday), or monthly on the same day. */
export function RepeatFields({ control, disabled }: { control: Control<ScheduleValues>; disabled: boolean }) {
  const { t } = useTranslation("schedules");
  const repeat = useWatch({ control, name: "repeat" });
  const days = t("weekdays", { returnObjects: true }) as string[];
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Controller
        name="repeat"
        control={control}
        render={({ field }) => (
          <TextField
            select
            label={t("modal.repeat")}
            value={field.value}
            onChange={(e) => field.onChange(e.target.value)}
            disabled={disabled}
            slotProps={{ htmlInput: { "data-testid": "schedule-repeat" } }}
          >
            {SCHEDULE_REPEATS.map((r) => (
              <MenuItem key={r} value={r}>
                {t(`repeat.${r}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {repeat === "weekly" && (
        <Controller
          name="repeatDays"
          control={control}
          render={({ field, fieldState }) => (
            <Box>
              <ToggleButtonGroup
                size="small"
                value={field.value}
                onChange={(_, next: number[]) => field.onChange(next)}
                aria-label={t("modal.repeatDays")}
                disabled={disabled}
                sx={{ flexWrap: "wrap" }}
              >
                {days.map((label, i) => (
                  <ToggleButton key={label} value={i} data-testid={`schedule-day-${i}`}>
                    {label}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
              {fieldState.error && <FormHelperText error>{validationText(fieldState.error.message)}</FormHelperText>}
            </Box>
          )}
        />
      )}
    </Box>
  );
}
