import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { type DragEvent, type ReactNode, type UIEvent, useState } from "react";

// the next page loads when a lane is scrolled to within this distance of its end
const LOAD_MORE_PX = 100;

type Props = {
  /** A kanban tag's id, or "open" for the lane of the tickets without one. */
  laneId: number | "open";
  title: string;
  color: string;
  count: number;
  /** Whether a card is being dragged (the lanes then take drops). */
  accepting: boolean;
  onDrop: () => void;
  /** The lane's end came into view. */
  onEnd: () => void;
  children: ReactNode;
};

/** One column of the board: the header in the lane's colour with its name and card count, then its cards. */
export function KanbanLane({ laneId, title, color, count, accepting, onDrop, onEnd, children }: Props) {
  const theme = useTheme();
  const [over, setOver] = useState(false);
  let text = "#fff";
  try {
    text = theme.palette.getContrastText(color);
  } catch {
    // a colour MUI cannot read: white on it
  }
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_MORE_PX) onEnd();
  };
  return (
    <Box
      data-testid="kanban-lane"
      data-lane-id={laneId}
      onDragOver={(event: DragEvent<HTMLDivElement>) => {
        if (!accepting) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        if (!over) setOver(true);
      }}
      onDragLeave={(event: DragEvent<HTMLDivElement>) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event: DragEvent<HTMLDivElement>) => {
        event.preventDefault();
        setOver(false);
        if (accepting) onDrop();
      }}
      sx={{
        flex: "0 0 290px",
        display: "flex",
        flexDirection: "column",
        minHeight: 0,
        maxHeight: "100%",
        borderRadius: 2,
        overflow: "hidden",
        bgcolor: theme.palette.mode === "dark" ? "grey.900" : "grey.200",
        border: 1,
        borderColor: "divider",
        outline: over ? `2px dashed ${theme.palette.primary.main}` : "2px solid transparent",
        outlineOffset: -2,
        transition: "outline-color 120ms",
      }}
    >
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 1.5,
          py: 1,
          bgcolor: color,
          color: text,
        }}
      >
        <Typography variant="subtitle1" component="h2" noWrap sx={{ flex: 1, minWidth: 0, fontWeight: 600 }}>
          {title}
        </Typography>
        <Box
          component="span"
          data-testid="kanban-lane-count"
          sx={{
            minWidth: 24,
            px: 0.75,
            borderRadius: 12,
            textAlign: "center",
            fontSize: 13,
            fontWeight: 600,
            lineHeight: "22px",
            bgcolor: "rgba(0, 0, 0, 0.18)",
          }}
        >
          {count}
        </Box>
      </Box>
      <Box
        onScroll={onScroll}
        sx={{ flex: 1, minHeight: 80, overflowY: "auto", p: 1, display: "flex", flexDirection: "column", gap: 1 }}
      >
        {children}
      </Box>
    </Box>
  );
}
