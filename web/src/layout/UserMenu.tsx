import IconButton from "@mui/material/IconButton";
import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useProtectedImage } from "../api/media";
import { profileImagePath } from "../api/users";
import { useAuth, useSessionUser } from "../auth/context";
import { UserAvatar } from "../components/UserAvatar";
import { useOpenedOnce } from "../hooks/use-opened-once";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";

// The menu (MUI's Menu, Popover, list and transitions) is fetched when the pointer or the focus
// reaches the avatar, the profile form (and zod with it) when the menu opens: neither comes with the shell.
const loadAccountMenu = loader(() => import("./AccountMenu"));
const AccountMenu = lazyLoaded(loadAccountMenu);
const preloadAccountMenu = () => void loadAccountMenu().catch(() => undefined);
const loadUserModal = loader(() => import("../pages/users/UserModal").then((module) => ({ default: module.UserModal })));
const UserModal = lazyLoaded(loadUserModal);

export function UserMenu() {
  const { t } = useTranslation("layout");
  const { logout } = useAuth();
  const user = useSessionUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuShown = useOpenedOnce(anchor !== null);
  const [profileOpen, setProfileOpen] = useState(false);
  const image = useProtectedImage(user.profileImage ? profileImagePath(user.id) : null, user.profileImage);

  return (
    <>
      <IconButton
        color="inherit"
        size="small"
        aria-label={t("userMenu.open")}
        aria-haspopup="menu"
        data-testid="user-menu-button"
        onPointerEnter={preloadAccountMenu}
        onFocus={preloadAccountMenu}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          void loadUserModal().catch(() => undefined);
        }}
      >
        <UserAvatar src={image.url} alt={user.name} />
      </IconButton>
      {menuShown && (
        <Suspense fallback={null}>
          <AccountMenu
            anchor={anchor}
            onClose={() => setAnchor(null)}
            onProfile={() => setProfileOpen(true)}
            onLogout={() => void logout()}
          />
        </Suspense>
      )}
      {profileOpen && (
        <Suspense fallback={null}>
          <UserModal open userId={user.id} onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
