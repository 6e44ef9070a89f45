import TranslateIcon from "@mui/icons-material/Translate";
import Button from "@mui/material/Button";
import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOpenedOnce } from "../hooks/use-opened-once";
import { currentLanguage } from "../i18n";
import { lazyLoaded } from "../lib/lazy-loaded";
import { loader } from "../lib/loader";

// The menu (MUI's Menu, Popover and Modal) is fetched when the pointer or the focus reaches the
// button, not with the login page.
const loadLanguageMenu = loader(() => import("./LanguageMenu").then((module) => ({ default: module.LanguageMenu })));
const LanguageMenu = lazyLoaded(loadLanguageMenu);
const preloadLanguageMenu = () => void loadLanguageMenu().catch(() => undefined);

/** The login page's language button. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuShown = useOpenedOnce(anchor !== null);

  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        aria-label={t("languages.label")}
        aria-haspopup="menu"
        data-testid="language-switcher"
        onPointerEnter={preloadLanguageMenu}
        onFocus={preloadLanguageMenu}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t(`languages.${currentLanguage()}`)}
      </Button>
      {menuShown && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
