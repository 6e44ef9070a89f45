import type { KanbanTicket, TagView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useKanbanBoard, useKanbanLanes, useKanbanLiveEvents, useMoveKanbanCard } from "../../api/kanban";
import { PageContainer } from "../../components/PageContainer";
import { toast } from "../../lib/toast";
import { KanbanCard } from "./KanbanCard";
import { KanbanLane } from "./KanbanLane";

const OPEN_COLOR = "#5C677D";

type Dragged = { ticket: KanbanTicket; lanes: number[] };

/**
 * secondary §2 Kanban: "Abierto" (tickets without a kanban tag), then one lane per kanban tag; a card
 * dragged to another lane takes that lane's tag (§3 Kanban moves). A failed move puts the card back
 * without a word (§9).
 */
export default function KanbanPage() {
  const { t } = useTranslation("kanban");
  const lanesQuery = useKanbanLanes();
  const lanes = useMemo(() => lanesQuery.data ?? [], [lanesQuery.data]);
  const board = useKanbanBoard();
  const move = useMoveKanbanCard(lanes);
  useKanbanLiveEvents();
  const [dragged, setDragged] = useState<Dragged | null>(null);
  const draggedRef = useRef<Dragged | null>(null);

  useEffect(() => {
    if (!board.isError && !lanesQuery.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [board.isError, lanesQuery.isError, t]);

  // a card with several kanban tags shows in each of their lanes
  const { open, byLane } = useMemo(() => {
    const ids = new Set(lanes.map((lane) => lane.id));
    const open: KanbanTicket[] = [];
    const byLane = new Map<number, KanbanTicket[]>(lanes.map((lane) => [lane.id, []]));
    for (const ticket of board.tickets) {
      const own = ticket.tags.filter((tag) => ids.has(tag.id));
      if (own.length === 0) open.push(ticket);
      for (const tag of own) byLane.get(tag.id)?.push(ticket);
    }
    return { open, byLane };
  }, [board.tickets, lanes]);

  const startDrag = (ticket: KanbanTicket) => {
    const ids = new Set(lanes.map((lane) => lane.id));
    const next = { ticket, lanes: ticket.tags.filter((tag) => ids.has(tag.id)).map((tag) => tag.id) };
    draggedRef.current = next;
    setDragged(next);
  };
  const endDrag = () => {
    draggedRef.current = null;
    setDragged(null);
  };

  const dropOn = (lane: TagView | null) => {
    const current = draggedRef.current;
    endDrag();
    if (!current) return;
    const already = lane ? current.lanes.length === 1 && current.lanes[0] === lane.id : current.lanes.length === 0;
    if (already) return;
    move.mutate(
      { ticketId: current.ticket.id, lane },
      { onSuccess: () => void toast.success(t(lane ? "toasts.added" : "toasts.removed")) },
    );
  };

  const loadMore = () => {
    if (board.hasMore && !board.loadingMore) board.loadMore();
  };

  const cards = (tickets: KanbanTicket[]) =>
    tickets.map((ticket) => (
      <KanbanCard
        key={ticket.id}
        ticket={ticket}
        dragging={dragged?.ticket.id === ticket.id}
        onDragStart={startDrag}
        onDragEnd={endDrag}
      />
    ));

  const loading = board.loading || lanesQuery.isLoading;
  return (
    <PageContainer title={t("title")} fill>
      {!loading && board.tickets.length === 0 && (
        <Typography color="text.secondary" data-testid="kanban-empty">
          {t("empty")}
        </Typography>
      )}
      {loading ? (
        <Box sx={{ display: "flex", justifyContent: "center", py: 6 }}>
          <CircularProgress />
        </Box>
      ) : (
        <Box
          data-testid="kanban-board"
          sx={{
            flex: 1,
            minHeight: 0,
            display: "flex",
            alignItems: "stretch",
            gap: 2,
            overflowX: "auto",
            overflowY: "hidden",
            pb: 1,
          }}
        >
          <KanbanLane
            laneId="open"
            title={t("open")}
            color={OPEN_COLOR}
            count={open.length}
            accepting={dragged !== null}
            onDrop={() => dropOn(null)}
            onEnd={loadMore}
          >
            {cards(open)}
          </KanbanLane>
          {lanes.map((lane) => {
            const tickets = byLane.get(lane.id) ?? [];
            return (
              <KanbanLane
                key={lane.id}
                laneId={lane.id}
                title={lane.name}
                color={lane.color}
                count={tickets.length}
                accepting={dragged !== null}
                onDrop={() => dropOn(lane)}
                onEnd={loadMore}
              >
                {cards(tickets)}
              </KanbanLane>
            );
          })}
        </Box>
      )}
      {board.hasMore && (
        <Box sx={{ display: "flex", justifyContent: "center" }}>
          <Button variant="outlined" onClick={loadMore} disabled={board.loadingMore} data-testid="kanban-load-more">
            {t("loadMore")}
          </Button>
        </Box>
      )}
    </PageContainer>
  );
}
