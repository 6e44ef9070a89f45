import AttachIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useRef } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  /** The file chosen now, else the one stored, else null. */
  name: string | null;
  onPick: (file: File) => void;
  onRemove: () => void;
  disabled: boolean;
};

/** The campaign's optional attachment: sent with the message as its caption (behaviours: Campaigns). */
export function CampaignMediaField({ name, onPick, onRemove, disabled }: Props) {
  const { t } = useTranslation("campaigns");
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
      <input
        ref={fileRef}
        type="file"
        hidden
        data-testid="campaign-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onPick(file);
          event.target.value = "";
        }}
      />
      <Button variant="outlined" startIcon={<AttachIcon />} disabled={disabled} onClick={() => fileRef.current?.click()}>
        {t(name ? "modal.replaceMedia" : "modal.attachMedia")}
      </Button>
      {name ? (
        <>
          <Typography variant="body2" sx={{ minWidth: 0, flex: 1 }} noWrap data-testid="campaign-media-name">
            {name}
          </Typography>
          {!disabled && (
            <Button color="error" startIcon={<DeleteIcon />} onClick={onRemove} data-testid="campaign-media-remove">
              {t("modal.removeMedia")}
            </Button>
          )}
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t("modal.noMedia")}
        </Typography>
      )}
    </Box>
  );
}
