import BackIcon from "@mui/icons-material/ArrowBack";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** A way up to the page this one belongs to (a list's contacts → the lists), shown before the title. */
export type BackAction = { label: string; onClick: () => void; testId: string };

type Props = {
  title: string;
  back?: BackAction;
  /** Search fields and buttons shown beside the title (below it on narrow screens). */
  actions?: ReactNode;
  children: ReactNode;
  /** Pages with their own scrolling area (infinite lists) fill the height instead of growing. */
  fill?: boolean;
};

export function PageContainer({ title, back, actions, children, fill = false }: Props) {
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
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexGrow: 1, minWidth: 0 }}>
          {back && (
            <Tooltip title={back.label}>
              <IconButton edge="start" aria-label={back.label} onClick={back.onClick} data-testid={back.testId}>
                <BackIcon />
              </IconButton>
            </Tooltip>
          )}
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, wordBreak: "break-word" }}>
            {title}
          </Typography>
        </Box>
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
