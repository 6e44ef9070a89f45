import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";

export function FullPageLoader() {
  return (
    <Box sx={{ display: "grid", placeItems: "center", minHeight: "100dvh" }}>
      <CircularProgress />
    </Box>
  );
}

export function SectionLoader() {
  return (
    <Box sx={{ display: "grid", placeItems: "center", py: 6, width: "100%" }}>
      <CircularProgress size={32} />
    </Box>
  );
}
