import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { Suspense, useCallback, useEffect, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { ChatPlaceholder } from "./ChatPlaceholder";
import { SectionLoader } from "../../components/FullPageLoader";
import { lazyLoaded } from "../../lib/lazy-loaded";
import { loader } from "../../lib/loader";
import { preloadTicketChat, TicketChat } from "./chat/lazy";
import type { MobileTab } from "./MobileTabs";
import { TicketsManager } from "./TicketsManager";

const LIST_WIDTH = 400;

const MobileTabs = lazyLoaded(loader(() => import("./MobileTabs")));

/**
 * core §2 tickets screen, /tickets and /tickets/{uuid}. From md up: the list (400 px) beside the chat,
 * or a logo placeholder. Narrower: bottom tabs Ticket (the chat) and Servicio (the list); the list is
 * shown while no ticket is selected and opening one switches to the chat. The list stays mounted
 * (hidden) under the chat so its tab, filters and scroll survive.
 */
export default function TicketsPage() {
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
      {/* a pointer or the keyboard reaching the list fetches the conversation's code before the click */}
      <Box
        onPointerEnter={preloadTicketChat}
        onFocusCapture={preloadTicketChat}
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
          {uuid ? (
            <Suspense fallback={<SectionLoader />}>
              <TicketChat uuid={uuid} />
            </Suspense>
          ) : (
            <ChatPlaceholder />
          )}
        </Box>
      )}
      {!wide && (
        <Paper square elevation={0} sx={{ borderTop: 1, borderColor: "divider", flexShrink: 0 }}>
          <Suspense fallback={<Box sx={{ height: 56 }} />}>
            <MobileTabs value={mobileTab} onChange={setMobileTab} chatDisabled={!uuid} />
          </Suspense>
        </Paper>
      )}
    </Box>
  );
}
