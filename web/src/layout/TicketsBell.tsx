import NotificationsIcon from "@mui/icons-material/NotificationsOutlined";
import List from "@mui/material/List";
import ListItemAvatar from "@mui/material/ListItemAvatar";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { flattenTickets, type TicketListFilters, useTicketsList } from "../api/tickets";
import { useAuth } from "../auth/context";
import { NotificationBell } from "../components/NotificationBell";
import { ContactAvatar } from "../pages/contacts/ContactAvatar";

const unreadOf = (status: "open" | "pending"): TicketListFilters => ({
  status,
  searchParam: "",
  queueIds: [],
  tags: [],
  users: [],
  showAll: false,
  withUnreadMessages: true,
});
const openUnread = unreadOf("open");
const pendingUnread = unreadOf("pending");

/**
 * The top bar's tickets bell: the viewer's open tickets with unread messages, and the pending ones
 * too for users whose allTicket is enabled (core §6). Both are ordinary ticket lists ("only unread"),
 * so the live events keep them current in the cache (use-ticket-list-events) with no refetch.
 */
export function TicketsBell() {
  const { t } = useTranslation("layout");
  const { user } = useAuth();
  const navigate = useNavigate();
  const withPending = user?.allTicket === "enable";

  const open = useTicketsList(openUnread, !!user);
  const pending = useTicketsList(pendingUnread, !!user && withPending);
  const openData = open.data;
  const pendingData = withPending ? pending.data : undefined;
  const tickets = useMemo(
    () => [...flattenTickets(openData), ...flattenTickets(pendingData)].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    [openData, pendingData],
  );
  const count = (openData?.pages[0]?.count ?? 0) + (pendingData?.pages[0]?.count ?? 0);

  return (
    <NotificationBell
      icon={<NotificationsIcon />}
      label={t("notifications.tickets")}
      emptyText={t("notifications.empty")}
      count={count}
      testId="bell-tickets"
    >
      {tickets.length === 0
        ? null
        : (close) => (
            <List dense disablePadding>
              {tickets.map((ticket) => (
                <ListItemButton
                  key={ticket.id}
                  data-testid="bell-ticket"
                  onClick={() => {
                    close();
                    navigate(`/tickets/${ticket.uuid}`);
                  }}
                >
                  <ListItemAvatar>
                    <ContactAvatar
                      id={ticket.contact.id}
                      name={ticket.contact.name}
                      profilePicUrl={ticket.contact.profilePicUrl}
                    />
                  </ListItemAvatar>
                  <ListItemText
                    primary={ticket.contact.name}
                    secondary={ticket.lastMessage}
                    slotProps={{ secondary: { noWrap: true } }}
                  />
                  <Typography variant="caption" color="success.main" sx={{ fontWeight: 700, ml: 1 }}>
                    {ticket.unreadMessages}
                  </Typography>
                </ListItemButton>
              ))}
            </List>
          )}
    </NotificationBell>
  );
}
