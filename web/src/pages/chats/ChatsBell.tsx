import ChatIcon from "@mui/icons-material/ForumOutlined";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { matchPath, useLocation, useNavigate } from "react-router";
import { chatCollection, chatUnreadTotal, unreadsOf, useChatLiveEvents } from "../../api/chats";
import { useAuth } from "../../auth/context";
import { NotificationBell } from "../../components/NotificationBell";
import { readVolume } from "../../lib/volume";
import { playNotificationSound } from "../tickets/notification-sound";
import { UnreadPill } from "./UnreadPill";

/**
 * The top bar's internal-chat bell (core §1): the user's unread chat messages in all, their chats with
 * unread ones first, and the tickets' sound when a message arrives for a chat not on screen. It keeps
 * the chat list live for the whole shell, so the page opens on current data.
 */
export function ChatsBell() {
  const { t } = useTranslation(["layout", "chats"]);
  const { user } = useAuth();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { pathname } = useLocation();
  const openUuid = matchPath("/chats/:id", pathname)?.params.id ?? null;
  const list = chatCollection.useList("", !!user);
  const chats = list.items;

  useChatLiveEvents(user?.id, (chatId) => {
    const chat = chats.find((c) => c.id === chatId);
    if (chat && chat.uuid === openUuid && document.visibilityState === "visible") return;
    playNotificationSound(readVolume());
  });

  // the server's total covers chats beyond the loaded page; the list's own counts until it is in
  // (read on each render: the list's data changing renders the bell)
  const total = chatUnreadTotal(client) ?? chats.reduce((sum, chat) => sum + unreadsOf(chat, user?.id), 0);
  const shown = [...chats].sort((a, b) => Number(unreadsOf(b, user?.id) > 0) - Number(unreadsOf(a, user?.id) > 0));

  return (
    <NotificationBell
      icon={<ChatIcon />}
      label={t("notifications.internalChat")}
      emptyText={t("notifications.empty")}
      count={total}
      testId="bell-internal-chat"
    >
      {shown.length === 0
        ? null
        : (close) => (
            <List dense disablePadding>
              {shown.slice(0, 20).map((chat) => (
                <ListItemButton
                  key={chat.id}
                  data-testid="bell-chat"
                  onClick={() => {
                    close();
                    navigate(`/chats/${chat.uuid}`);
                  }}
                >
                  <ListItemText primary={chat.title} secondary={chat.lastMessage} slotProps={{ secondary: { noWrap: true } }} />
                  <UnreadPill count={unreadsOf(chat, user?.id)} />
                </ListItemButton>
              ))}
            </List>
          )}
    </NotificationBell>
  );
}
