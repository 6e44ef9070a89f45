import Box from "@mui/material/Box";
import FormHelperText from "@mui/material/FormHelperText";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatOffset, isoToZoned, useCompanyZone, zonedToIso } from "../../lib/company-time";
import { TimeField } from "../schedules/TimeField";
import { DateField } from "./DateField";

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A date without its time, or the reverse: no instant, so the form's schema refuses it (V.invalid). */
export const INCOMPLETE_INSTANT = "incomplete";

type Props = {
  /** ISO instant, "" (none) or INCOMPLETE_INSTANT. */
  value: string;
  onChange: (value: string) => void;
  /** Both left empty means "no instant" (""), e.g. a campaign kept as a draft; else it is incomplete. */
  allowEmpty?: boolean;
  disabled: boolean;
  error?: string;
  /** Said after the zone the fields are read in ("Hora de la empresa: America/Noronha (UTC−2)"). */
  help?: string;
  labels: { date: string; time: string; pick: string };
  testIds: { date: string; time: string; help?: string };
};

/**
 * An instant as DD/MM/AAAA and HH:mm, the pickers the rest of the web uses (issue 26: the browser's
 * datetime input drew mm/dd/yyyy in an English Chromium), typed and shown on the company's clock as
 * every list shows it (issue 40), whatever the browser's zone; the zone is named under the fields.
 */
export function InstantField({ value, onChange, allowEmpty, disabled, error, help, labels, testIds }: Props) {
  const { t } = useTranslation("common");
  const zone = useCompanyZone();
  const zoneText = t("time.companyZone", { zone, offset: formatOffset(zone) });
  const start = value && value !== INCOMPLETE_INSTANT ? isoToZoned(value, zone) : { date: "", time: "" };
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const emitted = useRef(value);

  // a value from outside (the record loaded, the form reset) replaces what is typed
  useEffect(() => {
    if (value === emitted.current || value === INCOMPLETE_INSTANT) return;
    emitted.current = value;
    const next = value ? isoToZoned(value, zone) : { date: "", time: "" };
    setDate(next.date);
    setTime(next.time);
  }, [value, zone]);

  const emit = (d: string, tm: string) => {
    const result = allowEmpty && !d && !tm ? "" : d && HH_MM.test(tm) ? zonedToIso(d, tm, zone) : INCOMPLETE_INSTANT;
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
        {error ?? (help ? `${zoneText}. ${help}` : zoneText)}
      </FormHelperText>
    </Box>
  );
}
