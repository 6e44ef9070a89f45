import LogoutIcon from "@mui/icons-material/Logout";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import TranslateIcon from "@mui/icons-material/Translate";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LanguageMenu } from "../components/LanguageMenu";
import { currentLanguage } from "../i18n";

type Props = {
  anchor: HTMLElement | null;
  onClose: () => void;
  onProfile: () => void;
  onLogout: () => void;
};

/** The user menu's items (profile, language, logout): its own chunk, fetched when the menu is first reached (UserMenu). */
export default function AccountMenu({ anchor, onClose, onProfile, onLogout }: Props) {
  const { t } = useTranslation(["layout", "common"]);
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Menu
        open={anchor !== null}
        anchorEl={anchor}
        onClose={onClose}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem
          data-testid="menu-profile"
          onClick={() => {
            onClose();
            onProfile();
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
            onClose();
            onLogout();
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
          onClose();
        }}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      />
    </>
  );
}
