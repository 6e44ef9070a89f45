import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Tooltip from "@mui/material/Tooltip";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import type { ReactNode } from "react";

type Props = {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** Waiting for what the button started: it spins and takes no second click. */
  busy?: boolean;
  testId: string;
};

/**
 * A list page's own button beside search and add (import, export, back…). Under 600 px it keeps only
 * its icon, its label as a tooltip, so the page's buttons fit on one line.
 */
export function ToolbarButton({ label, icon, onClick, busy = false, testId }: Props) {
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const shown = busy ? <CircularProgress size={20} color="inherit" /> : icon;
  return (
    <Tooltip title={narrow ? label : ""}>
      <span>
        <Button
          variant="outlined"
          color="inherit"
          aria-label={label}
          startIcon={narrow ? undefined : shown}
          onClick={onClick}
          disabled={busy}
          sx={{ height: 40, borderColor: "divider", whiteSpace: "nowrap", ...(narrow && { minWidth: 0, px: 1.25 }) }}
          data-testid={testId}
        >
          {narrow ? shown : label}
        </Button>
      </span>
    </Tooltip>
  );
}
