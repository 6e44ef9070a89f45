import { DashboardPeriods } from "@charla/contracts";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "../../components/form/DateField";
import type { DashboardQuery } from "../../api/dashboard";
import { defaultRange } from "./format";

type Mode = "date" | "period";

/** The starting filter: mode 1, from the first of the month to today (core §9). */
export function initialQuery(today: string): DashboardQuery {
  const { from, to } = defaultRange(today);
  return { date_from: from, date_to: to };
}

/**
 * core §5, §9: mode 1 by date range, mode 2 by preset period. A change applies at once when complete
 * and valid, so the counters and the history follow the fields.
 */
export function DashboardFilterBar({ today, onChange }: { today: string; onChange: (query: DashboardQuery | null) => void }) {
  const { t } = useTranslation("home");
  const [mode, setMode] = useState<Mode>("date");
  const [range, setRange] = useState(() => defaultRange(today));
  const [days, setDays] = useState<number>(7);

  // core §5: one date alone is a filter too (from it to today, or up to it); none is "Parametrize o filtro"
  const applyRange = (next: { from: string; to: string }) => {
    setRange(next);
    if (!next.from && !next.to) onChange(null);
    else if (!next.from || !next.to || next.from <= next.to)
      onChange({ ...(next.from ? { date_from: next.from } : {}), ...(next.to ? { date_to: next.to } : {}) });
  };
  const applyMode = (next: Mode) => {
    setMode(next);
    if (next === "period") onChange({ days });
    else applyRange(range);
  };

  return (
    <Card variant="outlined" data-testid="dashboard-filter">
      <CardContent sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>
        <TextField
          select
          size="small"
          label={t("filter.type")}
          value={mode}
          onChange={(e) => applyMode(e.target.value as Mode)}
          sx={{ minWidth: 200 }}
          slotProps={{ htmlInput: { "data-testid": "dashboard-filter-mode" } }}
        >
          <MenuItem value="date">{t("filter.byDate")}</MenuItem>
          <MenuItem value="period">{t("filter.byPeriod")}</MenuItem>
        </TextField>
        {mode === "date" ? (
          <>
            <DateField
              label={t("filter.dateFrom")}
              value={range.from}
              max={range.to || undefined}
              onChange={(from) => applyRange({ ...range, from })}
              testId="dashboard-date-from"
              pickLabel={t("filter.pickDate")}
            />
            <DateField
              label={t("filter.dateTo")}
              value={range.to}
              min={range.from || undefined}
              onChange={(to) => applyRange({ ...range, to })}
              testId="dashboard-date-to"
              pickLabel={t("filter.pickDate")}
            />
          </>
        ) : (
          <TextField
            select
            size="small"
            label={t("filter.period")}
            value={days}
            onChange={(e) => {
              const next = Number(e.target.value);
              setDays(next);
              onChange({ days: next });
            }}
            sx={{ minWidth: 200 }}
            slotProps={{ htmlInput: { "data-testid": "dashboard-period" } }}
          >
            {DashboardPeriods.map((n) => (
              <MenuItem key={n} value={n}>
                {t("filter.days", { count: n })}
              </MenuItem>
            ))}
          </TextField>
        )}
      </CardContent>
    </Card>
  );
}
