import Menu, { type MenuProps } from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useTranslation } from "react-i18next";
import { currentLanguage, languages } from "../i18n";

type LanguageMenuProps = {
  anchor: HTMLElement | null;
  onClose: () => void;
} & Pick<MenuProps, "anchorOrigin" | "transformOrigin">;

/**
 * The languages to pick from. The choice is remembered in this browser (i18n's languageChanged
 * writes it), so the login page and the user menu share it.
 */
export function LanguageMenu({ anchor, onClose, ...position }: LanguageMenuProps) {
  const { t, i18n } = useTranslation();
  const active = currentLanguage();
  return (
    <Menu open={anchor !== null} anchorEl={anchor} onClose={onClose} {...position}>
      {languages.map((language) => (
        <MenuItem
          key={language}
          lang={language}
          selected={language === active}
          data-testid={`language-${language}`}
          onClick={() => {
            onClose();
            void i18n.changeLanguage(language);
          }}
        >
          {t(`languages.${language}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
