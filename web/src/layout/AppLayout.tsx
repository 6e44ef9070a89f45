import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { type ReactNode, Suspense, useState } from "react";
import { Outlet } from "react-router";
import { SectionLoader } from "../components/FullPageLoader";
import { useOpenedOnce } from "../hooks/use-opened-once";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";
import { TicketsLive } from "../pages/tickets/TicketsLive";
import { SocketProvider } from "../realtime/SocketProvider";
import { DRAWER_WIDTH } from "../theme/build-theme";
import { CompanyLogo } from "./CompanyLogo";
import { PaymentWatcher } from "./PaymentWatcher";
import { SideMenu } from "./SideMenu";
import { TopBar } from "./TopBar";

// MUI's Drawer (with Modal and its transitions) is needed only for the temporary menu under 600 px,
// fetched when it first opens; the docked menu is drawn without it (DockedDrawer).
const Drawer = lazyLoaded(loader(() => import("@mui/material/Drawer")));

/**
 * What `<Drawer variant="permanent">` draws (its docked root and paper, with the same classes and
 * styles), without the Drawer module, which brings Modal and the slide transition along.
 */
function DockedDrawer({ children }: { children: ReactNode }) {
  return (
    <Box className="MuiDrawer-root MuiDrawer-docked" sx={{ flex: "0 0 auto", width: DRAWER_WIDTH, flexShrink: 0 }}>
      <Paper
        square
        elevation={0}
        className="MuiDrawer-paper MuiDrawer-paperAnchorLeft MuiDrawer-paperAnchorDockedLeft"
        sx={{
          overflowY: "auto",
          display: "flex",
          flexDirection: "column",
          height: "100%",
          flex: "1 0 auto",
          zIndex: "drawer",
          WebkitOverflowScrolling: "touch",
          position: "relative",
          top: 0,
          left: 0,
          outline: 0,
          width: DRAWER_WIDTH,
          borderRight: 1,
          borderColor: "divider",
        }}
      >
        {children}
      </Paper>
    </Box>
  );
}

/** The authenticated shell: top bar, side menu (temporary under 600 px) and the routed page. */
export function AppLayout() {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const narrowShown = useOpenedOnce(narrow && narrowOpen);
  const toggleMenu = () => (narrow ? setNarrowOpen((open) => !open) : setWideOpen((open) => !open));

  return (
    <SocketProvider>
      <Box sx={{ display: "flex", flexDirection: "column", height: "100dvh", overflow: "hidden" }}>
        <TopBar menuOpen={narrow ? narrowOpen : wideOpen} onToggleMenu={toggleMenu} />
        <TicketsLive />
        <PaymentWatcher />
        <Box sx={{ display: "flex", flex: 1, minHeight: 0 }}>
          {narrow
            ? narrowShown && (
                <Suspense fallback={null}>
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
                </Suspense>
              )
            : wideOpen && (
                <DockedDrawer>
                  <SideMenu />
                </DockedDrawer>
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
