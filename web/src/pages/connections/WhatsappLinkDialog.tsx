import type { ConnectionView } from "@charla/contracts";
import CopyIcon from "@mui/icons-material/ContentCopy";
import OpenIcon from "@mui/icons-material/OpenInNew";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";

/**
 * The wa.me link that opens a chat with the number, its text typed in already: digits only (country
 * code first), the text URL-encoded; no number, no link.
 */
export function whatsappLink(number: string, text: string): string {
  const digits = number.replace(/\D/g, "");
  if (digits.length < 8) return "";
  const message = text.trim();
  return `https://wa.me/${digits}${message ? `?text=${encodeURIComponent(message)}` : ""}`;
}

type Props = { connection: ConnectionView | null; onClose: () => void };

/** core §2 modals: the WhatsApp link generator, for a connection's number; copied or opened. */
export function WhatsappLinkDialog({ connection, onClose }: Props) {
  const { t } = useTranslation("connections");
  const [number, setNumber] = useState(connection?.number ?? "");
  const [text, setText] = useState("");
  const link = whatsappLink(number, text);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t("link.copied"));
    } catch {
      // no clipboard (an insecure page, a refusal): the link stays selectable in the field
      toast.error(t("link.copyFailed"));
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="sm"
      fullWidth
      slotProps={{ paper: { "data-testid": "whatsapp-link-dialog" } as object }}
    >
      <DialogTitle>{t("link.title", { name: connection?.name ?? "" })}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: "8px !important" }}>
        <TextField
          label={t("link.number")}
          value={number}
          onChange={(event) => setNumber(event.target.value)}
          helperText={t("modal.numberHelp")}
          slotProps={{ htmlInput: { inputMode: "tel", maxLength: 30, "data-testid": "whatsapp-link-number" } }}
        />
        <TextField
          label={t("link.text")}
          value={text}
          onChange={(event) => setText(event.target.value)}
          multiline
          minRows={2}
          helperText={t("link.textHelp")}
          slotProps={{ htmlInput: { maxLength: 1000, "data-testid": "whatsapp-link-text" } }}
        />
        <TextField
          label={t("link.link")}
          value={link}
          placeholder={t("link.needsNumber")}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { readOnly: true, "data-testid": "whatsapp-link-url" } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="whatsapp-link-close">
          {t("common:actions.close")}
        </Button>
        <Button startIcon={<CopyIcon />} disabled={!link} onClick={() => void copy()} data-testid="whatsapp-link-copy">
          {t("link.copy")}
        </Button>
        <Button
          variant="contained"
          startIcon={<OpenIcon />}
          disabled={!link}
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="whatsapp-link-open"
        >
          {t("link.open")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
