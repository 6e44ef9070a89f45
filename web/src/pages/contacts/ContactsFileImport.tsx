import type { ContactListImportResult } from "@charla/contracts";
import UploadIcon from "@mui/icons-material/UploadFileOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useImportContactsFile } from "../../api/contacts";
import { toastError } from "../../api/errors";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ToolbarButton } from "../../components/list-kit/ToolbarButton";
import { ImportSummary } from "../contact-lists/ImportSummary";

/**
 * The contacts page's file import: a CSV such as its own export (name, number, email; `;` or `,`),
 * confirmed (core §8), then the same summary as a contact list's import: added, updated, rejected rows.
 */
export function ContactsFileImport() {
  // the summary's texts are the contact lists' own: loaded with the page, not when the summary opens
  const { t } = useTranslation(["contacts", "contact-lists"]);
  const importer = useImportContactsFile();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ContactListImportResult | null>(null);

  const start = async () => {
    if (!file) return;
    try {
      setResult(await importer.mutateAsync(file));
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
    setFile(null);
  };

  return (
    <>
      <ToolbarButton
        label={t("importFile.button")}
        icon={<UploadIcon />}
        busy={importer.isPending}
        onClick={() => input.current?.click()}
        testId="contacts-import-file"
      />
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv,.xlsx,.xls"
        hidden
        data-testid="contacts-import-file-input"
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          // the same file chosen again is a new import
          event.target.value = "";
        }}
      />
      <ConfirmDialog
        open={file !== null}
        title={t("importFile.title")}
        confirmLabel={t("importFile.confirm")}
        confirmColor="primary"
        busy={importer.isPending}
        onConfirm={() => void start()}
        onClose={() => setFile(null)}
      >
        {t("importFile.message", { file: file?.name ?? "" })}
      </ConfirmDialog>
      <Dialog
        open={result !== null}
        onClose={() => setResult(null)}
        fullWidth
        maxWidth="sm"
        data-testid="contacts-import-summary"
      >
        <DialogTitle>{t("importFile.summary")}</DialogTitle>
        <DialogContent>{result && <ImportSummary result={result} />}</DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={() => setResult(null)} variant="contained" data-testid="contacts-import-close">
            {t("common:actions.close")}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
