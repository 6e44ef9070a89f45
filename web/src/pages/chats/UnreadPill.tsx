import Box from "@mui/material/Box";

/** A chat's unread count beside its row (nothing when all is read). */
export function UnreadPill({ count, label, testId }: { count: number; label?: string; testId?: string }) {
  if (count <= 0) return null;
  return (
    <Box
      component="span"
      aria-label={label}
      data-testid={testId}
      sx={{
        ml: 1,
        minWidth: 22,
        height: 22,
        px: 0.75,
        borderRadius: 11,
        bgcolor: "error.main",
        color: "error.contrastText",
        fontSize: 12,
        fontWeight: 700,
        display: "inline-flex",
        alignItems: "center",
        justifyContent: "center",
        flexShrink: 0,
      }}
    >
      {count > 99 ? "99+" : count}
    </Box>
  );
}
