import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { useMemo } from "react";

type Props = { label: string; value: string; onChange: (zone: string) => void; testId?: string };

/** Every IANA zone this browser knows; one is always chosen (the field cannot be cleared). */
export function TimeZonePicker({ label, value, onChange, testId }: Props) {
  const zones = useMemo(() => {
    const known = Intl.supportedValuesOf("timeZone");
    return known.includes(value) ? known : [value, ...known];
  }, [value]);
  return (
    <Autocomplete
      disableClearable
      options={zones}
      value={value}
      onChange={(_, zone) => {
        if (zone) onChange(zone);
      }}
      sx={{ maxWidth: 320 }}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={label}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, "data-testid": testId } }}
        />
      )}
    />
  );
}
