import { createTheme, type Theme } from "@mui/material/styles";
import type { ThemePreferences } from "./preferences";

declare module "@mui/material/styles" {
  interface Palette {
    header: { main: string; contrastText: string };
  }
  interface PaletteOptions {
    header?: { main: string; contrastText?: string };
  }
}

const SCROLLBAR_PX = 8;
export const DRAWER_WIDTH = 280;

export function buildTheme({ mode, primaryColor, headerColor }: ThemePreferences): Theme {
  const dark = mode === "dark";
  const base = createTheme({
    palette: {
      mode,
      primary: { main: primaryColor },
      background: dark ? { default: "#121212", paper: "#1d1f23" } : { default: "#f4f5f7", paper: "#ffffff" },
    },
    shape: { borderRadius: 8 },
  });
  // A company's header colour is meant for the light look; in dark mode it would glare.
  const header = dark ? base.palette.background.paper : headerColor;
  return createTheme(base, {
    palette: { header: { main: header, contrastText: base.palette.getContrastText(header) } },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          "*::-webkit-scrollbar": { width: SCROLLBAR_PX, height: SCROLLBAR_PX },
          "*::-webkit-scrollbar-thumb": { backgroundColor: base.palette.primary.main, borderRadius: SCROLLBAR_PX },
          "*::-webkit-scrollbar-track": { backgroundColor: "transparent" },
          // Browsers without the -webkit- pseudo-elements get the closest standard equivalent.
          "@supports not selector(::-webkit-scrollbar)": {
            "*": { scrollbarWidth: "thin", scrollbarColor: `${base.palette.primary.main} transparent` },
          },
        },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  });
}
