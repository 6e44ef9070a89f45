import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { Suspense, useState } from "react";
import { Outlet } from "react-router";
import { SectionLoader } from "../components/FullPageLoader";
import { TicketsLive } from "../pages/tickets/TicketsLive";
import { SocketProvider } from "../realtime/SocketProvider";
import { DRAWER_WIDTH } from "../theme/build-theme";
import { CompanyLogo } from "./CompanyLogo";
import { SideMenu } from "./SideMenu";
import { TopBar } from "./TopBar";

/** The authenticated shell: top bar, side menu (temporary under 600 px) and the routed page. */
export function AppLayout() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const toggleMenu = () => (narrow ? setNarrowOpen((open) => !open) : setWideOpen((open) => !open));

  return (
    <SocketProvider>
      <Box sx={{ display: "flex", flexDirection: "column", height: "100dvh", overflow: "hidden" }}>
        <TopBar menuOpen={narrow ? narrowOpen : wideOpen} onToggleMenu={toggleMenu} />
        <TicketsLive />
        <Box sx={{ display: "flex", flex: 1, minHeight: 0 }}>
          {narrow ? (
            <Drawer
              variant="temporary"
              open={narrowOpen}
              onClose={() => setNarrowOpen(false)}
              slotProps={{ paper: { sx: { width: DRAWER_WIDTH } } }}
            >
              <Box sx={{ px: 2, py: 1.5, display: "flex", alignItems: "center", minHeight: 56 }}>
                <CompanyLogo height={36} />
              </Box>
              <SideMenu onNavigate={() => setNarrowOpen(false)} />
            </Drawer>
          ) : (
            wideOpen && (
              <Drawer
                variant="permanent"
                sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}
                slotProps={{ paper: { sx: { width: DRAWER_WIDTH, position: "relative" } } }}
              >
                <SideMenu />
              </Drawer>
            )
          )}
          <Box component="main" sx={{ flex: 1, minWidth: 0, overflow: "auto", display: "flex", flexDirection: "column" }}>
            <Suspense fallback={<SectionLoader />}>
              <Outlet />
            </Suspense>
          </Box>
        </Box>
      </Box>
    </SocketProvider>
  );
}
