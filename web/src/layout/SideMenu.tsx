import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { canAccess, useSubject } from "../auth/permissions";
import { registeredRoutes } from "../routes/registry";

/** Menu items come from the route registry, gated by the same rules as the routes (core §6). */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation("layout");
  const subject = useSubject();
  const { pathname } = useLocation();
  const items = registeredRoutes().filter(
    (route) => route.menu && canAccess(subject, route.access) && canAccess(subject, route.menu.access),
  );

  return (
    <List component="nav" aria-label={t("menu.label")} sx={{ px: 1 }}>
      {items.map(({ path, menu }) =>
        menu ? (
          <ListItemButton
            key={path}
            component={NavLink}
            to={path}
            end
            selected={pathname === path || (path !== "/" && pathname.startsWith(`${path}/`))}
            onClick={onNavigate}
            data-testid={`menu-${menu.key}`}
            sx={{ borderRadius: 1, mb: 0.5 }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>{menu.icon}</ListItemIcon>
            <ListItemText primary={t(menu.labelKey)} />
          </ListItemButton>
        ) : null,
      )}
    </List>
  );
}
