import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

type Props = {
  title: string;
  /** Search fields and buttons shown beside the title (below it on narrow screens). */
  actions?: ReactNode;
  children: ReactNode;
  /** Pages with their own scrolling area (infinite lists) fill the height instead of growing. */
  fill?: boolean;
};

export function PageContainer({ title, actions, children, fill = false }: Props) {
  return (
    <Box
      sx={{
        p: { xs: 1.5, sm: 3 },
        display: "flex",
        flexDirection: "column",
        gap: 2,
        flex: fill ? 1 : "none",
        minHeight: fill ? 0 : "auto",
      }}
    >
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {actions && (
          <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap", width: { xs: "100%", sm: "auto" } }}>
            {actions}
          </Box>
        )}
      </Box>
      {children}
    </Box>
  );
}
