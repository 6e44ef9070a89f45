import { type ScheduleEntry, Weekdays } from "@charla/contracts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { TimeField } from "./TimeField";

type Props = {
  value: ScheduleEntry[];
  onChange: (value: ScheduleEntry[]) => void;
  /** Per weekday, whether the server or the schema refused its times. */
  invalid?: (weekdayEn: string) => boolean;
  testId: string;
};

const closed = { startTime: "00:00", endTime: "00:00" };

/** The week, one row a day with its opening and closing time; 00:00–00:00 reads as closed (core §9). */
export function SchedulesEditor({ value, onChange, invalid, testId }: Props) {
  const { t } = useTranslation("queues");
  const entry = (weekdayEn: string) => value.find((e) => e.weekdayEn === weekdayEn);
  const set = (day: (typeof Weekdays)[number], patch: Partial<ScheduleEntry>) => {
    const current = entry(day.weekdayEn) ?? { ...day, ...closed };
    const next = { ...current, ...patch };
    onChange(Weekdays.map((d) => (d.weekdayEn === day.weekdayEn ? next : (entry(d.weekdayEn) ?? { ...d, ...closed }))));
  };
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.25 }} data-testid={testId}>
      {Weekdays.map((day) => {
        const e = entry(day.weekdayEn) ?? { ...day, ...closed };
        const isClosed = e.startTime === "00:00" && e.endTime === "00:00";
        return (
          <Box key={day.weekdayEn} sx={{ display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
            <Typography sx={{ width: 120, fontWeight: 500 }}>{t(`hours.days.${day.weekdayEn}`)}</Typography>
            <TimeField
              label={t("hours.start")}
              value={e.startTime}
              error={invalid?.(day.weekdayEn)}
              onChange={(startTime) => set(day, { startTime })}
              testId={`${testId}-${day.weekdayEn}-start`}
            />
            <TimeField
              label={t("hours.end")}
              value={e.endTime}
              error={invalid?.(day.weekdayEn)}
              onChange={(endTime) => set(day, { endTime })}
              testId={`${testId}-${day.weekdayEn}-end`}
            />
            {isClosed && (
              <Typography variant="body2" color="text.secondary">
                {t("hours.closed")}
              </Typography>
            )}
          </Box>
        );
      })}
      <Typography variant="caption" color="text.secondary">
        {t("hours.help")}
      </Typography>
    </Box>
  );
}
