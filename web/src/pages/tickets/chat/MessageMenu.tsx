import type { MessageView } from "@charla/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import ExpandMoreIcon from "@mui/icons-material/KeyboardArrowDown";
import ReplyIcon from "@mui/icons-material/Reply";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";

type Props = {
  message: MessageView;
  background: string;
  onReply: (message: MessageView) => void;
  onDelete: (message: MessageView) => void;
};

/** core §6: any message can be replied to; only own messages not yet deleted can be deleted. */
export function MessageMenu({ message, background, onReply, onDelete }: Props) {
  const { t } = useTranslation("chat");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const canDelete = message.fromMe && !message.isDeleted;
  const canCopy = message.body.trim() !== "" && (message.mediaType === "chat" || !!message.mediaUrl);
  return (
    <>
      <IconButton
        size="small"
        className="message-menu"
        data-testid="message-menu"
        aria-label={t("message.menu")}
        aria-haspopup="menu"
        aria-expanded={anchor ? "true" : "false"}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{
          position: "absolute",
          top: 2,
          right: 2,
          zIndex: 1,
          p: 0.25,
          opacity: 0,
          transition: "opacity 120ms",
          color: "inherit",
          background: `radial-gradient(circle at center, ${background} 55%, transparent 75%)`,
          "&:hover": { background },
          "&:focus-visible": { opacity: 1 },
        }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem
          data-testid="message-reply"
          onClick={() => {
            close();
            onReply(message);
          }}
        >
          <ListItemIcon>
            <ReplyIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t("message.reply")}</ListItemText>
        </MenuItem>
        {canCopy && (
          <MenuItem
            onClick={() => {
              close();
              void navigator.clipboard?.writeText(message.body).catch(() => undefined);
            }}
          >
            <ListItemIcon>
              <ContentCopyIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t("message.copy")}</ListItemText>
          </MenuItem>
        )}
        {canDelete && (
          <MenuItem
            data-testid="message-delete"
            onClick={() => {
              close();
              onDelete(message);
            }}
            sx={{ color: "error.main" }}
          >
            <ListItemIcon>
              <DeleteIcon fontSize="small" color="error" />
            </ListItemIcon>
            <ListItemText>{t("message.delete")}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
