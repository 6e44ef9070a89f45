import { Limits, type SettingKey } from "@charla/contracts";
import TextField from "@mui/material/TextField";
import { useEffect, useRef, useState } from "react";

type Props = { settingKey: SettingKey; label: string; value: string; onSave: (value: string) => Promise<void> };

/** A free-text setting saved when the field is left or Enter is pressed, not on every keystroke. */
export function TextSetting({ settingKey, label, value, onSave }: Props) {
  const [draft, setDraft] = useState(value);
  // Enter followed by leaving the field must not save the same text twice.
  const pending = useRef<string | null>(null);
  useEffect(() => {
    setDraft(value);
    pending.current = null;
  }, [value]);

  const commit = () => {
    if (draft === value || draft === pending.current) return;
    pending.current = draft;
    onSave(draft).finally(() => {
      pending.current = null;
    });
  };

  return (
    <TextField
      label={label}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === "Enter") commit();
      }}
      fullWidth
      autoComplete="off"
      slotProps={{ htmlInput: { maxLength: Limits.settingValueMax, "data-testid": `setting-${settingKey}` } }}
    />
  );
}
