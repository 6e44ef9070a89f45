import DarkModeIcon from "@mui/icons-material/DarkModeOutlined";
import LightModeIcon from "@mui/icons-material/LightModeOutlined";
import IconButton from "@mui/material/IconButton";
import Tooltip from "../components/LightTooltip";
import { useTranslation } from "react-i18next";
import { toggleThemeMode, useThemePreferences } from "../theme/preferences";

export function ThemeToggle() {
  const { t } = useTranslation("layout");
  const { mode } = useThemePreferences();
  const label = t(mode === "dark" ? "theme.toLight" : "theme.toDark");
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" size="small" aria-label={label} data-testid="theme-toggle" onClick={toggleThemeMode}>
        {mode === "dark" ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
