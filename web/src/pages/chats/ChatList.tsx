import AddIcon from "@mui/icons-material/Add";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { type ChatView, unreadsOf } from "../../api/chats";
import type { ListState } from "../../api/collection";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { UnreadPill } from "./UnreadPill";

type Props = {
  list: ListState<ChatView>;
  userId: number | undefined;
  selectedId: number | null;
  onOpen: (chat: ChatView) => void;
  onNew: () => void;
};

/** The user's chats (secondary §2): title, last message and their unread count, latest first. */
export function ChatList({ list, userId, selectedId, onOpen, onNew }: Props) {
  const { t } = useTranslation("chats");
  const scroll = useInfiniteScroll<HTMLDivElement>({ hasMore: list.hasMore, loading: list.loading, loadMore: list.loadMore });
  return (
    <Box sx={{ display: "flex", flexDirection: "column", minHeight: 0, flex: 1 }}>
      <Box sx={{ p: 1, borderBottom: 1, borderColor: "divider" }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onNew} data-testid="chat-new" fullWidth>
          {t("list.new")}
        </Button>
      </Box>
      <Box ref={scroll.ref} onScroll={scroll.onScroll} sx={{ overflowY: "auto", flex: 1 }}>
        {list.items.length === 0 && !list.loading ? (
          <Typography sx={{ p: 2, color: "text.secondary" }} data-testid="chat-list-empty">
            {t("list.empty")}
          </Typography>
        ) : (
          <List disablePadding data-testid="chat-list">
            {list.items.map((chat) => {
              const unreads = unreadsOf(chat, userId);
              return (
                <ListItemButton
                  key={chat.id}
                  selected={chat.id === selectedId}
                  onClick={() => onOpen(chat)}
                  data-testid="chat-list-item"
                  data-chat={chat.uuid}
                  data-unreads={unreads}
                  divider
                >
                  <ListItemText
                    primary={chat.title}
                    secondary={chat.lastMessage || "\u00a0"}
                    slotProps={{
                      primary: { noWrap: true, sx: { fontWeight: unreads ? 700 : 400 } },
                      secondary: { noWrap: true },
                    }}
                  />
                  <UnreadPill count={unreads} label={t("list.unread", { count: unreads })} testId="chat-unreads" />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </Box>
    </Box>
  );
}
