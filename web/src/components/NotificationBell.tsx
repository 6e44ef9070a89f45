import Badge from "@mui/material/Badge";
import IconButton from "@mui/material/IconButton";
import Tooltip from "./LightTooltip";
import Typography from "@mui/material/Typography";
import { type ReactNode, useState } from "react";
import { LazyPopover, preloadPopovers } from "./LazyPopover";

type Props = {
  icon: ReactNode;
  label: string;
  emptyText: string;
  /** Shown as a badge only when above 0: nothing unread shows no badge. */
  count?: number;
  testId: string;
  /** The areas that feed a bell render their items here (given a way to close it); empty shows `emptyText`. */
  children?: ReactNode | ((close: () => void) => ReactNode);
};

export function NotificationBell({ icon, label, emptyText, count = 0, testId, children }: Props) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          size="small"
          aria-label={label}
          data-testid={testId}
          data-count={count}
          onPointerEnter={preloadPopovers}
          onFocus={preloadPopovers}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={count > 0 ? count : null} color="error" max={99}>
            {icon}
          </Badge>
        </IconButton>
      </Tooltip>
      <LazyPopover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { sx: { width: 320, maxWidth: "calc(100vw - 16px)", maxHeight: 400 } } }}
      >
        {(typeof children === "function" ? children(() => setAnchor(null)) : children) ?? (
          <Typography sx={{ p: 2, color: "text.secondary" }} data-testid={`${testId}-empty`}>
            {emptyText}
          </Typography>
        )}
      </LazyPopover>
    </>
  );
}
