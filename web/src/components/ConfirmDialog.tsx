import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  busy?: boolean;
  /** Red for what destroys (the default), primary for what only adds. */
  confirmColor?: "error" | "primary";
  onConfirm: () => void;
  onClose: () => void;
};

export function ConfirmDialog({ open, title, children, confirmLabel, busy, confirmColor = "error", onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="confirm-dialog">
      <DialogTitle>{title}</DialogTitle>
      {children && (
        <DialogContent>
          <DialogContentText>{children}</DialogContentText>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="confirm-cancel">
          {t("actions.cancel")}
        </Button>
        <Button onClick={onConfirm} variant="contained" color={confirmColor} disabled={busy} data-testid="confirm-ok">
          {confirmLabel ?? t("actions.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
