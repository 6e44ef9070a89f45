import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { ChatMessageView } from "../../api/chats";
import { formatDateTime } from "../../lib/company-time";

/** The chat's title, with edit and delete for its owner only (secondary §2, §6). */
export function ChatHeader({
  title,
  owner,
  onEdit,
  onDelete,
}: {
  title: string;
  owner: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation("chats");
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: "divider" }}>
      <Typography variant="h6" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="chat-title">
        {title}
      </Typography>
      {owner && (
        <>
          <Tooltip title={t("actions.edit")}>
            <IconButton aria-label={t("actions.edit")} onClick={onEdit} data-testid="chat-edit">
              <EditIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("actions.delete")}>
            <IconButton aria-label={t("actions.delete")} onClick={onDelete} data-testid="chat-delete">
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </>
      )}
    </Box>
  );
}

/** One message: the user's own on the right, others' on the left under their sender's name. */
export function ChatBubble({ message, mine }: { message: ChatMessageView; mine: boolean }) {
  const { t } = useTranslation("chats");
  return (
    <Paper
      data-testid="chat-message"
      data-mine={mine}
      elevation={0}
      sx={{
        alignSelf: mine ? "flex-end" : "flex-start",
        maxWidth: "80%",
        px: 1.5,
        py: 1,
        bgcolor: mine ? "primary.light" : "background.paper",
        border: 1,
        borderColor: "divider",
      }}
    >
      {!mine && (
        <Typography variant="caption" sx={{ fontWeight: 700, display: "block" }}>
          {message.sender?.name ?? t("messages.unknownSender")}
        </Typography>
      )}
      <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{message.message}</Typography>
      <Typography variant="caption" sx={{ color: "text.secondary", display: "block", textAlign: "right" }}>
        {formatDateTime(message.createdAt)}
      </Typography>
    </Paper>
  );
}

type ComposerProps = { value: string; onChange: (value: string) => void; onSend: () => void; busy: boolean };

/** secondary §5: sent by Enter (Shift+Enter breaks the line) or the button, never blank. */
export function ChatComposer({ value, onChange, onSend, busy }: ComposerProps) {
  const { t } = useTranslation("chats");
  return (
    <Box sx={{ display: "flex", gap: 1, p: 1, borderTop: 1, borderColor: "divider", alignItems: "flex-end" }}>
      <TextField
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            onSend();
          }
        }}
        placeholder={t("messages.placeholder")}
        multiline
        maxRows={5}
        size="small"
        fullWidth
        slotProps={{ htmlInput: { "data-testid": "chat-input", "aria-label": t("messages.placeholder") } }}
      />
      <IconButton
        color="primary"
        aria-label={t("messages.send")}
        onClick={onSend}
        disabled={!value.trim() || busy}
        data-testid="chat-send"
      >
        <SendIcon />
      </IconButton>
    </Box>
  );
}
