import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ChatView, useChatMessages, useOpenChatEvents, useSendChatMessage } from "../../api/chats";
import { toastError } from "../../api/errors";
import { ChatBubble, ChatComposer, ChatHeader } from "./ChatParts";

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
      <ChatHeader title={chat.title} owner={owner} onEdit={onEdit} onDelete={onDelete} />
      <Box
        ref={scroller}
        onScroll={maybeLoadMore}
        sx={{ flex: 1, overflowY: "auto", p: 2, display: "flex", flexDirection: "column", gap: 1, bgcolor: "background.default" }}
      >
        {!isLoading && messages.length === 0 && (
          <Typography sx={{ color: "text.secondary", m: "auto" }}>{t("messages.empty")}</Typography>
        )}
        {messages.map((m) => (
          <ChatBubble key={m.id} message={m} mine={m.senderId === userId} />
        ))}
      </Box>
      <ChatComposer value={text} onChange={setText} onSend={submit} busy={send.isPending} />
    </Box>
  );
}
