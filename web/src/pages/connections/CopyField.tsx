import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";

type Props = { label: string; value: string; testId: string; helperText?: string };

/** A value of the server's to paste elsewhere (Meta's app settings): read-only, selected on focus, copied by its button. */
export function CopyField({ label, value, testId, helperText }: Props) {
  const { t } = useTranslation("connections");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t("cloud.copied"), { autoClose: 1000 });
    } catch {
      // no clipboard (a page served over plain http, a refusal): the field stays selectable
      toast.error(t("cloud.copyFailed"));
    }
  };
  return (
    <TextField
      label={label}
      value={value}
      helperText={helperText}
      fullWidth
      // a long URL wraps rather than hide its end on a phone
      multiline
      onFocus={(event) => event.target.select()}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: {
          readOnly: true,
          spellCheck: false,
          "data-testid": testId,
          style: { fontFamily: "monospace", wordBreak: "break-all" },
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={t("cloud.copy")}>
                <IconButton onClick={() => void copy()} edge="end" aria-label={t("cloud.copy")} data-testid={`${testId}-copy`}>
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
