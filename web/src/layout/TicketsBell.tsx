import { Events, type TicketsPage } from "@charla/contracts";
import NotificationsIcon from "@mui/icons-material/NotificationsOutlined";
import List from "@mui/material/List";
import ListItemAvatar from "@mui/material/ListItemAvatar";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../api/client";
import { useAuth } from "../auth/context";
import { NotificationBell } from "../components/NotificationBell";
import { ContactAvatar } from "../pages/contacts/ContactAvatar";
import { useSocketEvent } from "../realtime/context";

const bellKey = ["tickets", "bell"] as const;

/**
 * The top bar's tickets bell: the viewer's open tickets with unread messages, and the pending ones
 * too for users whose allTicket is enabled (core §6). Refreshed by every ticket or message event.
 */
export function TicketsBell() {
  const { t } = useTranslation("layout");
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const withPending = user?.allTicket === "enable";
  const companyId = user?.companyId ?? null;

  const query = useQuery({
    queryKey: [...bellKey, withPending],
    enabled: !!user,
    staleTime: 5_000,
    queryFn: async ({ signal }) => {
      const read = (status: "open" | "pending") =>
        api<TicketsPage>("/tickets", { query: { status, withUnreadMessages: true }, signal });
      const pages = await Promise.all(withPending ? [read("open"), read("pending")] : [read("open")]);
      return pages.flatMap((page) => page.tickets).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    },
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: bellKey });
  useSocketEvent(companyId === null ? null : Events.ticket(companyId), refresh);
  useSocketEvent(companyId === null ? null : Events.appMessage(companyId), refresh);

  const tickets = query.data ?? [];
  return (
    <NotificationBell
      icon={<NotificationsIcon />}
      label={t("notifications.tickets")}
      emptyText={t("notifications.empty")}
      count={tickets.length}
      showZero
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
