import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { type ReactNode, useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { buildTheme } from "./build-theme";
import { useThemePreferences } from "./preferences";

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const preferences = useThemePreferences();
  const { t } = useTranslation();
  const theme = useMemo(() => buildTheme(preferences), [preferences]);

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
