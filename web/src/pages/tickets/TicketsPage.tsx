import ChatIcon from "@mui/icons-material/ChatOutlined";
import ListIcon from "@mui/icons-material/FormatListBulleted";
import BottomNavigation from "@mui/material/BottomNavigation";
import BottomNavigationAction from "@mui/material/BottomNavigationAction";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useParams } from "react-router";
import { ChatPlaceholder } from "./ChatPlaceholder";
import { TicketChat } from "./chat/TicketChat";
import { TicketsManager } from "./TicketsManager";

const LIST_WIDTH = 400;

type MobileTab = "list" | "chat";

/**
 * core §2 tickets screen, /tickets and /tickets/{uuid}. From md up: the list (400 px) beside the chat,
 * or a logo placeholder. Narrower: bottom tabs Ticket (the chat) and Servicio (the list); the list is
 * shown while no ticket is selected and opening one switches to the chat. The list stays mounted
 * (hidden) under the chat so its tab, filters and scroll survive.
 */
export default function TicketsPage() {
  const { t } = useTranslation("tickets");
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up("md"));
  const { ticketId } = useParams();
  const uuid = ticketId ?? null;
  const navigate = useNavigate();
  const location = useLocation();
  const [mobileTab, setMobileTab] = useState<MobileTab>(uuid ? "chat" : "list");

  // A selected ticket shows the chat; none selected shows the list.
  useEffect(() => {
    setMobileTab(uuid ? "chat" : "list");
  }, [uuid]);

  const openTicket = useCallback(
    (next: string) => {
      // The same ticket again only brings the chat back on narrow screens.
      setMobileTab("chat");
      if (next !== uuid) navigate({ pathname: `/tickets/${next}`, search: location.search });
    },
    [navigate, location.search, uuid],
  );

  const showList = wide || mobileTab === "list";
  const showChat = wide || mobileTab === "chat";

  return (
    <Box
      data-testid="tickets-page"
      sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: wide ? "row" : "column", overflow: "hidden" }}
    >
      <Box
        sx={{
          display: showList ? "flex" : "none",
          flexDirection: "column",
          width: wide ? LIST_WIDTH : "100%",
          flexShrink: 0,
          flex: wide ? "none" : 1,
          minHeight: 0,
          borderRight: wide ? 1 : 0,
          borderColor: "divider",
        }}
      >
        <TicketsManager selectedUuid={uuid} onOpenTicket={openTicket} />
      </Box>
      {showChat && (
        <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>
          {uuid ? <TicketChat uuid={uuid} /> : <ChatPlaceholder />}
        </Box>
      )}
      {!wide && (
        <Paper square elevation={0} sx={{ borderTop: 1, borderColor: "divider", flexShrink: 0 }}>
          <BottomNavigation
            showLabels
            value={mobileTab}
            onChange={(_, value: MobileTab) => setMobileTab(value)}
            sx={{ height: 56, bgcolor: "background.paper" }}
          >
            <BottomNavigationAction
              value="chat"
              label={t("mobile.chat")}
              icon={<ChatIcon />}
              disabled={!uuid}
              sx={{ "&.Mui-disabled": { opacity: 0.45 } }}
              data-testid="tickets-bottom-tab-chat"
            />
            <BottomNavigationAction
              value="list"
              label={t("mobile.list")}
              icon={<ListIcon />}
              data-testid="tickets-bottom-tab-list"
            />
          </BottomNavigation>
        </Paper>
      )}
    </Box>
  );
}
