import type { MessageView, QuickMessageView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import CloseIcon from "@mui/icons-material/Close";
import FileIcon from "@mui/icons-material/InsertDriveFileOutlined";
import AudioIcon from "@mui/icons-material/MicNoneOutlined";
import VideoIcon from "@mui/icons-material/VideocamOutlined";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import Paper from "@mui/material/Paper";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useObjectUrl } from "../../../hooks/use-object-url";
import { useBubbleColors } from "./chat-colors";
import { previewOf } from "./message-parts";

/** core §5: `/shortcode - message`, cut at 35 characters plus an ellipsis. */
export function quickReplyLabel(reply: Pick<QuickMessageView, "shortcode" | "message">): string {
  const label = `/${reply.shortcode} - ${reply.message}`.replace(/\s+/g, " ");
  return label.length > Limits.quickReplyLabel ? `${label.slice(0, Limits.quickReplyLabel)}…` : label;
}

/** Replies whose shortcode matches what follows the slash; those starting with it first. */
export function matchQuickReplies(replies: QuickMessageView[], text: string): QuickMessageView[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  const needle = text.slice(1).toLowerCase();
  const starts = replies.filter((r) => r.shortcode.toLowerCase().startsWith(needle));
  const contains = replies.filter(
    (r) => !r.shortcode.toLowerCase().startsWith(needle) && r.shortcode.toLowerCase().includes(needle),
  );
  return [...starts, ...contains].slice(0, 8);
}

type QuickProps = { options: QuickMessageView[]; active: number; onPick: (reply: QuickMessageView) => void };

export function QuickReplyList({ options, active, onPick }: QuickProps) {
  const { t } = useTranslation("chat");
  return (
    <Paper
      elevation={6}
      data-testid="quick-replies"
      sx={{ position: "absolute", left: 8, right: 8, bottom: "100%", mb: 1, maxHeight: 280, overflowY: "auto", zIndex: 5 }}
    >
      <Typography variant="overline" sx={{ px: 2, pt: 1, display: "block", opacity: 0.7 }}>
        {t("composer.quickReplies")}
      </Typography>
      <List dense role="listbox">
        {options.map((reply, i) => (
          <ListItemButton
            key={reply.id}
            selected={i === active}
            role="option"
            aria-selected={i === active}
            data-testid="quick-reply"
            // mousedown keeps the focus in the text field
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(reply)}
          >
            {quickReplyLabel(reply)}
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}

export function ReplyBar({
  message,
  contactName,
  onCancel,
}: {
  message: MessageView;
  contactName: string;
  onCancel: () => void;
}) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const accent = message.fromMe ? colors.quoteMine : colors.quoteTheirs;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1.5, pt: 1 }} data-testid="composer-reply">
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          borderLeft: `4px solid ${accent}`,
          borderRadius: 1.5,
          bgcolor: "action.hover",
          px: 1.25,
          py: 0.75,
        }}
      >
        <Typography variant="caption" sx={{ fontWeight: 600, color: accent }}>
          {message.fromMe ? t("message.you") : contactName}
        </Typography>
        <Typography variant="body2" noWrap sx={{ opacity: 0.8 }}>
          {previewOf(message, t)}
        </Typography>
      </Box>
      <IconButton size="small" onClick={onCancel} aria-label={t("composer.cancelReply")} data-testid="composer-reply-cancel">
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

function FileThumb({ file }: { file: File }) {
  const isImage = file.type.startsWith("image/");
  const url = useObjectUrl(isImage ? file : null);
  if (url)
    return <Box component="img" src={url} alt={file.name} sx={{ width: 56, height: 56, objectFit: "cover", borderRadius: 1 }} />;
  const Icon = file.type.startsWith("audio/") ? AudioIcon : file.type.startsWith("video/") ? VideoIcon : FileIcon;
  return (
    <Box sx={{ width: 56, height: 56, display: "grid", placeItems: "center", borderRadius: 1, bgcolor: "action.selected" }}>
      <Icon />
    </Box>
  );
}

export function AttachmentTray({ files, onRemove }: { files: File[]; onRemove: (index: number) => void }) {
  const { t } = useTranslation("chat");
  return (
    <Box sx={{ display: "flex", gap: 1, px: 1.5, pt: 1, overflowX: "auto" }} data-testid="composer-files">
      {files.map((file, i) => (
        <Box
          // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be chosen twice
          key={`${file.name}-${file.size}-${i}`}
          data-testid="composer-file"
          sx={{
            position: "relative",
            flexShrink: 0,
            width: 96,
            p: 0.75,
            borderRadius: 1.5,
            bgcolor: "background.paper",
            boxShadow: 1,
          }}
        >
          <Box sx={{ display: "grid", placeItems: "center" }}>
            <FileThumb file={file} />
          </Box>
          <Tooltip title={file.name}>
            <Typography variant="caption" noWrap component="div" sx={{ mt: 0.5, textAlign: "center" }}>
              {file.name}
            </Typography>
          </Tooltip>
          <IconButton
            size="small"
            onClick={() => onRemove(i)}
            aria-label={t("composer.removeFile", { name: file.name })}
            data-testid="composer-file-remove"
            sx={{
              position: "absolute",
              top: -8,
              right: -8,
              bgcolor: "background.paper",
              boxShadow: 1,
              p: 0.25,
              "&:hover": { bgcolor: "background.paper" },
            }}
          >
            <CloseIcon sx={{ fontSize: 16 }} />
          </IconButton>
        </Box>
      ))}
    </Box>
  );
}
