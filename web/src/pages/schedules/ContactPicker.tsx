import { Limits } from "@charla/contracts";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useContactOptions } from "../../api/tickets";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { formatPhoneNumber } from "../../lib/phone";
import { validationText } from "../../lib/validation";
import type { ScheduleValues } from "./ScheduleModal";

export type PickedContact = { id: number; name: string; number: string };

const labelOf = (c: PickedContact) => `${c.name.trim() || c.number}${c.number ? ` · ${formatPhoneNumber(c.number)}` : ""}`;

/** The schedule's contact: searched by name or number from 3 characters (core §9), one picked. */
export function ContactPicker({
  control,
  initial,
  disabled,
}: {
  control: Control<ScheduleValues>;
  initial: PickedContact | null;
  disabled: boolean;
}) {
  const { t } = useTranslation("schedules");
  const [picked, setPicked] = useState<PickedContact | null>(initial);
  const [input, setInput] = useState("");
  const typed = useDebouncedValue(input.trim(), Limits.debounceMs);
  const found = useContactOptions(typed);
  const options: PickedContact[] =
    typed.length < Limits.searchMin ? [] : (found.data ?? []).map((c) => ({ id: c.id, name: c.name, number: c.number }));
  return (
    <Controller
      name="contactId"
      control={control}
      render={({ field, fieldState }) => (
        <Autocomplete<PickedContact, false, false, false>
          options={options}
          value={picked}
          disabled={disabled}
          inputValue={input}
          onInputChange={(_, value, reason) => {
            if (reason === "reset" && !value && picked) return;
            setInput(value);
          }}
          onChange={(_, option) => {
            setPicked(option);
            field.onChange(option?.id ?? 0);
          }}
          filterOptions={(items) => items}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          getOptionLabel={labelOf}
          loading={found.isFetching}
          noOptionsText={typed.length < Limits.searchMin ? t("modal.typeMore") : t("modal.noContacts")}
          loadingText={t("modal.searching")}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("modal.contact")}
              required
              error={Boolean(fieldState.error)}
              helperText={validationText(fieldState.error?.message)}
              slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, "data-testid": "schedule-contact" } }}
            />
          )}
        />
      )}
    />
  );
}
