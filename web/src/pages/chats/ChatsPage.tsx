import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { type ChatView, chatCollection, unreadsOf, useChatByUuid, useReadChat } from "../../api/chats";
import { useAuth } from "../../auth/context";
import { PageContainer } from "../../components/PageContainer";
import { useConfirmDelete } from "../../components/list-kit/use-confirm-delete";
import { ChatDialog } from "./ChatDialog";
import { ChatList } from "./ChatList";
import { ChatMessages } from "./ChatMessages";

/**
 * secondary §2 Internal chat, /chats and /chats/{uuid}: the chat list and the open chat side by side
 * on desktop, as two tabs (Chats, Mensajes) on narrow screens. Opening a chat clears the user's
 * unread count (secondary §4), and so does a message arriving while it is open.
 */
export default function ChatsPage() {
  const { t } = useTranslation("chats");
  const { id: uuid } = useParams();
  const navigate = useNavigate();
  const { user } = useAuth();
  const narrow = useMediaQuery(useTheme().breakpoints.down("md"));
  const [tab, setTab] = useState(uuid ? 1 : 0);
  const [dialog, setDialog] = useState<{ chat: ChatView | null } | null>(null);
  const list = chatCollection.useList("");
  const fetched = useChatByUuid(uuid);
  // the list's copy is the live one; the fetched one covers a chat beyond the loaded pages
  const chat = list.items.find((c) => c.uuid === uuid) ?? (fetched.isError ? null : fetched.data) ?? null;
  const read = useReadChat(user?.id);
  const remove = chatCollection.useDelete();
  const unread = chat ? unreadsOf(chat, user?.id) : 0;

  // opening a chat reads it (secondary §4); so does a message arriving while it is open
  const chatId = chat?.id ?? null;
  const readFor = useRef<number | null>(null);
  const { mutate: markRead } = read;
  useEffect(() => {
    if (chatId === null || (readFor.current === chatId && unread === 0)) return;
    readFor.current = chatId;
    markRead(chatId);
  }, [chatId, unread, markRead]);

  const confirm = useConfirmDelete<ChatView>({
    title: (c) => t("confirmDelete.title", { title: c.title }),
    message: t("confirmDelete.message"),
    run: async (c) => {
      await remove.mutateAsync(c.id);
      navigate("/chats");
    },
    done: t("toasts.deleted"),
  });

  const open = (c: ChatView) => {
    navigate(`/chats/${c.uuid}`);
    setTab(1);
  };

  const listPane = (
    <ChatList list={list} userId={user?.id} selectedId={chat?.id ?? null} onOpen={open} onNew={() => setDialog({ chat: null })} />
  );
  const messagesPane = chat ? (
    <ChatMessages
      key={chat.id}
      chat={chat}
      userId={user?.id}
      onEdit={() => setDialog({ chat })}
      onDelete={() => confirm.ask(chat)}
    />
  ) : (
    <Typography sx={{ m: "auto", p: 3, color: "text.secondary" }} data-testid="chat-pick">
      {uuid && fetched.isError ? t("notFound") : t("messages.pick")}
    </Typography>
  );

  return (
    <PageContainer title={t("title")} fill>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}>
        {narrow ? (
          <>
            <Tabs
              value={tab}
              onChange={(_, v: number) => setTab(v)}
              variant="fullWidth"
              sx={{ borderBottom: 1, borderColor: "divider" }}
            >
              <Tab label={t("tabs.chats")} data-testid="chat-tab-chats" />
              <Tab label={t("tabs.messages")} data-testid="chat-tab-messages" />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column" }}>
              {tab === 0 ? listPane : messagesPane}
            </Box>
          </>
        ) : (
          <Box sx={{ display: "flex", flex: 1, minHeight: 0 }}>
            <Box
              sx={{ width: 320, flexShrink: 0, borderRight: 1, borderColor: "divider", display: "flex", flexDirection: "column" }}
            >
              {listPane}
            </Box>
            <Box sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>{messagesPane}</Box>
          </Box>
        )}
      </Paper>
      {dialog && (
        <ChatDialog
          chat={dialog.chat}
          ownId={user?.id}
          onClose={() => setDialog(null)}
          onSaved={(saved) => !dialog.chat && open(saved)}
        />
      )}
      {confirm.dialog}
    </PageContainer>
  );
}
