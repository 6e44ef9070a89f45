import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../i18n";
import { ImportSummary } from "./ImportSummary";
import type { ImportStage } from "./use-list-import";

type Props = {
  open: boolean;
  stage: ImportStage | null;
  listName: string;
  onConfirm: () => void;
  onClose: () => void;
};

const count = (n: number) => n.toLocaleString(currentLanguage());

/** The bar while the file leaves (its bytes), then while the server reads and writes it. */
function ImportProgressBar({ stage }: { stage: Extract<ImportStage, { step: "upload" | "write" }> }) {
  const { t } = useTranslation("contact-lists");
  let text: string;
  let value: number | undefined;
  if (stage.step === "upload") {
    value = Math.round(stage.sent * 100);
    text = t("import.progress.upload", { percent: value });
  } else if (stage.progress) {
    value = Math.round((stage.progress.done / Math.max(stage.progress.total, 1)) * 100);
    text = t("import.progress.write", { done: count(stage.progress.done), total: count(stage.progress.total) });
  } else {
    // a sheet is read whole before its first row is written; small ones are written in one go
    text = t("import.progress.read");
  }
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, py: 1 }}>
      <Typography variant="body2" data-testid="import-progress-text">
        {text}
      </Typography>
      <LinearProgress
        variant={value === undefined ? "indeterminate" : "determinate"}
        value={value}
        aria-label={text}
        data-testid="import-progress"
      />
    </Box>
  );
}

/**
 * secondary §2 import of a spreadsheet: one dialog through the confirmation (naming the file and the
 * list), the progress and the summary, so nothing flickers between them.
 */
export function ImportDialog({ open, stage, listName, onConfirm, onClose }: Props) {
  const { t } = useTranslation("contact-lists");
  if (!stage) return null;
  const working = stage.step === "upload" || stage.step === "write";
  const title = stage.step === "confirm" ? "import.confirm.title" : working ? "import.progress.title" : "import.summary.title";
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth={stage.step === "summary" ? "sm" : "xs"}
      data-testid="import-dialog"
      data-step={stage.step}
    >
      <DialogTitle>{t(title)}</DialogTitle>
      <DialogContent>
        {stage.step === "confirm" && (
          <>
            <DialogContentText sx={{ wordBreak: "break-word" }} data-testid="import-confirm-text">
              {t("import.confirm.message", { file: stage.file.name, list: listName })}
            </DialogContentText>
            <DialogContentText variant="body2" sx={{ mt: 1.5 }}>
              {t("import.confirm.columns")}
            </DialogContentText>
          </>
        )}
        {(stage.step === "upload" || stage.step === "write") && <ImportProgressBar stage={stage} />}
        {stage.step === "summary" && <ImportSummary result={stage.result} />}
      </DialogContent>
      {stage.step === "confirm" && (
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} color="inherit" data-testid="import-cancel">
            {t("common:actions.cancel")}
          </Button>
          <Button onClick={onConfirm} variant="contained" data-testid="import-start">
            {t("import.confirm.start")}
          </Button>
        </DialogActions>
      )}
      {stage.step === "summary" && (
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} variant="contained" data-testid="import-close">
            {t("common:actions.close")}
          </Button>
        </DialogActions>
      )}
    </Dialog>
  );
}
