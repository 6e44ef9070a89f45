import LogoutIcon from "@mui/icons-material/Logout";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import TranslateIcon from "@mui/icons-material/Translate";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useProtectedImage } from "../api/media";
import { profileImagePath } from "../api/users";
import { useAuth, useSessionUser } from "../auth/context";
import { LanguageMenu } from "../components/LanguageSwitcher";
import { UserAvatar } from "../components/UserAvatar";
import { currentLanguage } from "../i18n";
import { UserModal } from "../pages/users/UserModal";

export function UserMenu() {
  const { t } = useTranslation(["layout", "common"]);
  const { logout } = useAuth();
  const user = useSessionUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const image = useProtectedImage(user.profileImage ? profileImagePath(user.id) : null, user.profileImage);

  return (
    <>
      <IconButton
        color="inherit"
        size="small"
        aria-label={t("userMenu.open")}
        aria-haspopup="menu"
        data-testid="user-menu-button"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <UserAvatar src={image.url} alt={user.name} />
      </IconButton>
      <Menu
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem
          data-testid="menu-profile"
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          {t("userMenu.profile")}
        </MenuItem>
        <MenuItem data-testid="menu-language" aria-haspopup="menu" onClick={(event) => setLanguageAnchor(event.currentTarget)}>
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText
            primary={t("common:languages.label")}
            secondary={t(`common:languages.${currentLanguage()}`)}
            slotProps={{ secondary: { variant: "caption" } }}
          />
        </MenuItem>
        <MenuItem
          data-testid="logout"
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t("userMenu.logout")}
        </MenuItem>
      </Menu>
      <LanguageMenu
        anchor={languageAnchor}
        onClose={() => {
          setLanguageAnchor(null);
          setAnchor(null);
        }}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      />
      {profileOpen && <UserModal open userId={user.id} onClose={() => setProfileOpen(false)} />}
    </>
  );
}
