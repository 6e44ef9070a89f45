import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import SendIcon from "@mui/icons-material/Send";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ChatView, useChatMessages, useOpenChatEvents, useSendChatMessage } from "../../api/chats";
import { toastError } from "../../api/errors";
import { formatDateTime } from "../../i18n/dates";

// secondary §9: older messages load within 600 px of the top
const LOAD_MORE_PX = 600;

type Props = { chat: ChatView; userId: number | undefined; onEdit: () => void; onDelete: () => void };

/**
 * One chat's messages (secondary §2, §5): oldest at the top, more loaded on scrolling up, a new one
 * sent by Enter (Shift+Enter breaks the line) or the button, never blank. Edit and delete only for its owner.
 */
export function ChatMessages({ chat, userId, onEdit, onDelete }: Props) {
  const { t } = useTranslation("chats");
  const { messages, hasNextPage, isFetchingNextPage, fetchNextPage, isLoading } = useChatMessages(chat.id);
  const send = useSendChatMessage();
  const [text, setText] = useState("");
  const scroller = useRef<HTMLDivElement>(null);
  // where the bottom was before older messages went in above, so the view does not jump
  const fromBottom = useRef<number | null>(null);
  const stick = useRef(true);
  const owner = chat.ownerId !== null && chat.ownerId === userId;

  useOpenChatEvents(chat.id, () => {
    const el = scroller.current;
    stick.current = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: placed again each time messages are added
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (fromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - fromBottom.current;
      fromBottom.current = null;
    } else if (stick.current) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  const maybeLoadMore = () => {
    const el = scroller.current;
    if (!el || !hasNextPage || isFetchingNextPage || el.scrollTop > LOAD_MORE_PX) return;
    fromBottom.current = el.scrollHeight - el.scrollTop;
    void fetchNextPage();
  };
  // a first page too short to scroll still brings the older ones
  useEffect(maybeLoadMore);

  const submit = () => {
    if (!text.trim() || send.isPending) return;
    stick.current = true;
    send.mutate({ chatId: chat.id, message: text }, { onSuccess: () => setText(""), onError: (error) => toastError(error) });
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }} data-testid="chat-messages">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: "divider" }}>
        <Typography variant="h6" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="chat-title">
          {chat.title}
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
      <Box
        ref={scroller}
        onScroll={maybeLoadMore}
        sx={{ flex: 1, overflowY: "auto", p: 2, display: "flex", flexDirection: "column", gap: 1, bgcolor: "background.default" }}
      >
        {!isLoading && messages.length === 0 && (
          <Typography sx={{ color: "text.secondary", m: "auto" }}>{t("messages.empty")}</Typography>
        )}
        {messages.map((m) => {
          const mine = m.senderId === userId;
          return (
            <Paper
              key={m.id}
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
                  {m.sender?.name ?? t("messages.unknownSender")}
                </Typography>
              )}
              <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.message}</Typography>
              <Typography variant="caption" sx={{ color: "text.secondary", display: "block", textAlign: "right" }}>
                {formatDateTime(m.createdAt)}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      <Box sx={{ display: "flex", gap: 1, p: 1, borderTop: 1, borderColor: "divider", alignItems: "flex-end" }}>
        <TextField
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
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
          onClick={submit}
          disabled={!text.trim() || send.isPending}
          data-testid="chat-send"
        >
          <SendIcon />
        </IconButton>
      </Box>
    </Box>
  );
}
