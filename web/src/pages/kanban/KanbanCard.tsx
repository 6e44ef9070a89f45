import type { KanbanTicket } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

// the last message as the card shows it: three lines at most (and never a whole long text in the DOM)
const MESSAGE_CHARS = 300;

type Props = {
  ticket: KanbanTicket;
  dragging: boolean;
  onDragStart: (ticket: KanbanTicket) => void;
  onDragEnd: () => void;
};

/** One ticket on the board: contact, number, last message, "Ver Ticket"; dragged to change its lane. */
export function KanbanCard({ ticket, dragging, onDragStart, onDragEnd }: Props) {
  const { t } = useTranslation("kanban");
  const navigate = useNavigate();
  const message =
    ticket.lastMessage.length > MESSAGE_CHARS ? `${ticket.lastMessage.slice(0, MESSAGE_CHARS)}…` : ticket.lastMessage;
  return (
    <Paper
      variant="outlined"
      draggable
      onDragStart={(event: DragEvent<HTMLDivElement>) => {
        // some browsers start a drag only when it carries data
        event.dataTransfer.setData("text/plain", String(ticket.id));
        event.dataTransfer.effectAllowed = "move";
        onDragStart(ticket);
      }}
      onDragEnd={onDragEnd}
      data-testid="kanban-card"
      data-ticket-id={ticket.id}
      data-uuid={ticket.uuid}
      sx={{
        p: 1.5,
        display: "flex",
        flexDirection: "column",
        gap: 0.5,
        cursor: "grab",
        opacity: dragging ? 0.5 : 1,
        borderLeft: 4,
        borderLeftColor: ticket.queue?.color ?? "divider",
        "&:active": { cursor: "grabbing" },
      }}
    >
      <Typography variant="subtitle2" sx={{ fontWeight: 600, wordBreak: "break-word" }} data-testid="kanban-card-name">
        {ticket.contact.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" data-testid="kanban-card-number">
        {ticket.contact.number}
      </Typography>
      {message && (
        <Typography
          variant="body2"
          color="text.secondary"
          data-testid="kanban-card-message"
          sx={{
            display: "-webkit-box",
            WebkitLineClamp: 3,
            WebkitBoxOrient: "vertical",
            overflow: "hidden",
            wordBreak: "break-word",
            whiteSpace: "pre-line",
          }}
        >
          {message}
        </Typography>
      )}
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mt: 0.5 }}>
        {ticket.queue && (
          <Typography variant="caption" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {ticket.queue.name}
          </Typography>
        )}
        <Button
          size="small"
          variant="contained"
          sx={{ ml: "auto", whiteSpace: "nowrap" }}
          onClick={() => navigate(`/tickets/${ticket.uuid}`)}
          data-testid="kanban-view-ticket"
        >
          {t("viewTicket")}
        </Button>
      </Box>
    </Paper>
  );
}
