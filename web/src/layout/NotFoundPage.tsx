import ExploreOffIcon from "@mui/icons-material/ExploreOffOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";

/**
 * A path the app does not have (a typo, an old link, an area not built yet): said on screen inside the
 * shell, with a way back, instead of landing silently on the dashboard.
 */
export function NotFoundPage() {
  const { t } = useTranslation("layout");
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // history.state.idx is react-router's own index: 0 means this page was opened directly
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <Box data-testid="not-found" sx={{ flex: 1, display: "grid", placeItems: "center", p: 3, textAlign: "center" }}>
      <Box sx={{ maxWidth: 420, display: "flex", flexDirection: "column", alignItems: "center", gap: 1.5 }}>
        <ExploreOffIcon sx={{ fontSize: 64, color: "text.disabled" }} />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t("notFound.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
          {t("notFound.text", { path: pathname })}
        </Typography>
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", justifyContent: "center", mt: 1 }}>
          {canGoBack && (
            <Button variant="outlined" onClick={() => navigate(-1)} data-testid="not-found-back">
              {t("notFound.back")}
            </Button>
          )}
          <Button variant="contained" component={Link} to="/" data-testid="not-found-home">
            {t("notFound.home")}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
