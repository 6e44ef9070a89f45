import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import { useTranslation } from "react-i18next";

type Props = {
  onCancel: () => void;
  /** Saving: both buttons wait and the submit button spins. */
  busy: boolean;
  /** The submit button only (e.g. the record is still loading). */
  disabled?: boolean;
  submitLabel: string;
  /** Nothing may be saved (a read-only record): no submit button, and cancel reads "close". */
  readOnly?: boolean;
  cancelTestId?: string;
  submitTestId: string;
};

/** Cancel and submit, the row every form dialog ends with; the dialog's form element does the submitting. */
export function FormDialogActions(props: Props) {
  const { onCancel, busy, disabled = false, submitLabel, readOnly = false, cancelTestId, submitTestId } = props;
  const { t } = useTranslation("common");
  return (
    <DialogActions sx={{ px: 3, py: 2 }}>
      <Button onClick={onCancel} color="inherit" disabled={busy} data-testid={cancelTestId}>
        {t(readOnly ? "actions.close" : "actions.cancel")}
      </Button>
      {!readOnly && (
        <Button
          type="submit"
          variant="contained"
          disabled={busy || disabled}
          data-testid={submitTestId}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {submitLabel}
        </Button>
      )}
    </DialogActions>
  );
}
