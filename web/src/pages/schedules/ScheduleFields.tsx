import { SCHEDULE_REPEATS } from "@charla/contracts";
import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import { type Control, Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { InstantField } from "../../components/form/InstantField";
import { validationText } from "../../lib/validation";
import type { ScheduleValues } from "./ScheduleModal";

/** Read on the company's clock (its zone), whatever the browser's zone. */
export function WhenFields({ control, disabled }: { control: Control<ScheduleValues>; disabled: boolean }) {
  const { t } = useTranslation("schedules");
  return (
    <Controller
      name="sendAt"
      control={control}
      render={({ field, fieldState }) => (
        <InstantField
          value={field.value}
          onChange={field.onChange}
          disabled={disabled}
          error={validationText(fieldState.error?.message)}
          labels={{ date: t("modal.date"), time: t("modal.time"), pick: t("modal.pickDate") }}
          testIds={{ date: "schedule-date", time: "schedule-time", help: "schedule-when-help" }}
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
