import CssBaseline from "@mui/material/CssBaseline";
import { enUS, esES, ptBR } from "@mui/material/locale";
import { createTheme, ThemeProvider } from "@mui/material/styles";
import { type ReactNode, useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage, type Language } from "../i18n";
import { buildTheme } from "./build-theme";
import { useThemePreferences } from "./preferences";

const muiLocales: Record<Language, object> = { es: esES, pt: ptBR, en: enUS };

/**
 * MUI's own texts (pagination, alerts…) follow the interface language through its locale packs; the
 * pickers' texts come from our catalogue on top, so they read like the rest of the interface.
 */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const preferences = useThemePreferences();
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ? currentLanguage() : "es";
  const theme = useMemo(
    () =>
      createTheme(buildTheme(preferences), muiLocales[language], {
        components: {
          MuiAutocomplete: {
            defaultProps: {
              clearText: t("mui.clear"),
              closeText: t("mui.close"),
              openText: t("mui.open"),
              loadingText: t("mui.loading"),
              noOptionsText: t("mui.noOptions"),
            },
          },
          MuiAlert: { defaultProps: { closeText: t("mui.close") } },
        },
      }),
    [preferences, language, t],
  );

  useEffect(() => {
    document.title = preferences.pageTitle ?? t("appName");
  }, [preferences.pageTitle, t]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
