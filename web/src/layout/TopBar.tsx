import MenuIcon from "@mui/icons-material/Menu";
import MenuOpenIcon from "@mui/icons-material/MenuOpen";
import RefreshIcon from "@mui/icons-material/Refresh";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import Tooltip from "../components/LightTooltip";
import Typography from "@mui/material/Typography";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../auth/context";
import { useAccess } from "../auth/permissions";
import { useCompanyZone, zoneDiffersFromBrowser } from "../lib/company-time";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";
import { ChatsBell } from "../pages/chats/ChatsBell";
import { AnnouncementsBell } from "./AnnouncementsBell";
import { CompanyLogo } from "./CompanyLogo";
import { ThemeToggle } from "./ThemeToggle";
import { TicketsBell } from "./TicketsBell";
import { UserMenu } from "./UserMenu";
import { VolumeControl } from "./VolumeControl";

type Props = { menuOpen: boolean; onToggleMenu: () => void };

// only a browser whose clock is not the company's fetches the zone's mark: most never need it
const CompanyZoneClock = lazyLoaded(loader(() => import("./CompanyZoneClock")));

/** Under 600 px the greeting takes a second row so the icons keep their size. */
export function TopBar({ menuOpen, onToggleMenu }: Props) {
  const { t } = useTranslation("layout");
  const user = useSessionUser();
  const internalChat = useAccess({ planFlag: "useInternalChat" });
  const zone = useCompanyZone();

  return (
    <AppBar
      position="static"
      elevation={0}
      sx={{ bgcolor: "header.main", color: "header.contrastText", borderBottom: 1, borderColor: "divider" }}
    >
      <Toolbar sx={{ flexWrap: "wrap", columnGap: 1, px: { xs: 1, sm: 2 } }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t(menuOpen ? "menu.close" : "menu.open")}
          data-testid="menu-toggle"
          onClick={onToggleMenu}
        >
          {menuOpen ? <MenuOpenIcon /> : <MenuIcon />}
        </IconButton>
        <Box sx={{ display: { xs: "none", sm: "block" } }}>
          <CompanyLogo />
        </Box>
        <Typography
          data-testid="greeting"
          noWrap
          sx={{
            flexGrow: 1,
            minWidth: 0,
            order: { xs: 1, sm: 0 },
            flexBasis: { xs: "100%", sm: 0 },
            pb: { xs: 1, sm: 0 },
            pl: { xs: 0.5, sm: 1 },
            fontWeight: 500,
          }}
        >
          {t("greeting", { name: user.name, company: user.company.name })}
        </Typography>
        <Box sx={{ flexGrow: { xs: 1, sm: 0 } }} />
        <Box sx={{ display: "flex", alignItems: "center", gap: { xs: 0.25, sm: 0.5 } }}>
          {zoneDiffersFromBrowser(zone) && (
            <Suspense fallback={null}>
              <CompanyZoneClock zone={zone} />
            </Suspense>
          )}
          <VolumeControl />
          <Tooltip title={t("refresh")}>
            <IconButton
              color="inherit"
              size="small"
              aria-label={t("refresh")}
              data-testid="refresh-button"
              onClick={() => window.location.reload()}
            >
              <RefreshIcon />
            </IconButton>
          </Tooltip>
          <ThemeToggle />
          <TicketsBell />
          <AnnouncementsBell />
          {internalChat && <ChatsBell />}
          <UserMenu />
        </Box>
      </Toolbar>
    </AppBar>
  );
}
