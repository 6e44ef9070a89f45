import TranslateIcon from "@mui/icons-material/Translate";
import Button from "@mui/material/Button";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage, languages } from "../i18n";

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = currentLanguage();

  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        aria-label={t("languages.label")}
        aria-haspopup="menu"
        data-testid="language-switcher"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t(`languages.${active}`)}
      </Button>
      <Menu open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)}>
        {languages.map((language) => (
          <MenuItem
            key={language}
            selected={language === active}
            data-testid={`language-${language}`}
            onClick={() => {
              setAnchor(null);
              void i18n.changeLanguage(language);
            }}
          >
            {t(`languages.${language}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
