import AttachIcon from "@mui/icons-material/AttachFile";
import PlaceIcon from "@mui/icons-material/LocationOnOutlined";
import ContactIcon from "@mui/icons-material/PermContactCalendarOutlined";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { type ChangeEvent, type FormEvent, type KeyboardEvent, useRef } from "react";
import type { Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../components/form/FormTextField";
import type { CustomerMessageValues } from "./simulator-form";

type Props = {
  control: Control<CustomerMessageValues>;
  canSend: boolean;
  disabled: boolean;
  attachment: File | null;
  onSubmit: (event?: FormEvent) => void;
  onFile: (file: File) => void;
  onRemoveFile: () => void;
  onLocation: () => void;
  onVcard: () => void;
};

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The customer's keyboard: text (Enter sends, Shift+Enter breaks the line), a file, a location, a contact. */
export function Composer({ control, canSend, disabled, attachment, onSubmit, onFile, onRemoveFile, onLocation, onVcard }: Props) {
  const { t } = useTranslation("simulator");
  const fileInput = useRef<HTMLInputElement>(null);

  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // cleared so choosing the same file again still fires a change
    event.target.value = "";
    if (file) onFile(file);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSubmit();
    }
  };

  const tool = { size: "small", disabled, sx: { flexShrink: 0, p: { xs: 0.5, sm: 0.75 } } } as const;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{
        p: 1,
        display: "flex",
        flexDirection: "column",
        gap: 1,
        borderTop: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
      }}
    >
      {attachment && (
        <Box>
          <Chip
            icon={<AttachIcon />}
            label={`${attachment.name} · ${sizeOf(attachment.size)}`}
            onDelete={onRemoveFile}
            data-testid="simulator-attachment"
            sx={{ maxWidth: "100%" }}
          />
        </Box>
      )}
      <Box sx={{ display: "flex", alignItems: "flex-end", gap: 0.5 }}>
        <input ref={fileInput} type="file" hidden onChange={pickFile} data-testid="simulator-attach" />
        <Tooltip title={t("composer.attach")}>
          <span>
            <IconButton {...tool} aria-label={t("composer.attach")} onClick={() => fileInput.current?.click()}>
              <AttachIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("composer.location")}>
          <span>
            <IconButton {...tool} aria-label={t("composer.location")} onClick={onLocation} data-testid="simulator-location-open">
              <PlaceIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("composer.vcard")}>
          <span>
            <IconButton {...tool} aria-label={t("composer.vcard")} onClick={onVcard} data-testid="simulator-vcard-open">
              <ContactIcon />
            </IconButton>
          </span>
        </Tooltip>
        <FormTextField
          control={control}
          name="body"
          placeholder={t(attachment ? "composer.caption" : "composer.placeholder")}
          multiline
          maxRows={4}
          size="small"
          fullWidth
          disabled={disabled}
          onKeyDown={onKeyDown}
          testId="simulator-body"
          sx={{ flex: 1, minWidth: 0, "& .MuiOutlinedInput-root": { borderRadius: 5 } }}
        />
        <Tooltip title={t("composer.send")}>
          <span>
            <IconButton
              type="submit"
              color="primary"
              disabled={disabled || !canSend}
              aria-label={t("composer.send")}
              data-testid="simulator-send"
              sx={{ flexShrink: 0 }}
            >
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}
