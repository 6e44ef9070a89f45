import InboxIcon from "@mui/icons-material/Inbox";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { flattenTickets, type TicketListFilters, type TicketView, useTicketsList } from "../../api/tickets";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { TICKET_ITEM_HEIGHT, TicketListItem } from "./TicketListItem";
import { ThinProgress } from "../../components/ThinProgress";

type Props = {
  filters: TicketListFilters;
  selectedUuid: string | null;
  canPeek: boolean;
  acceptingId: number | null;
  /** The empty state's message for this tab. */
  emptyMessage: string;
  onOpen: (ticket: TicketView) => void;
  onAccept: (ticket: TicketView) => void;
  onPeek: (ticket: TicketView) => void;
};

function LoadingRows() {
  return (
    <Box aria-busy="true">
      {Array.from({ length: 7 }, (_, i) => (
        <Box
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
          key={i}
          sx={{
            display: "flex",
            gap: 1.25,
            alignItems: "center",
            px: 1.75,
            height: TICKET_ITEM_HEIGHT,
            borderBottom: 1,
            borderColor: "divider",
          }}
        >
          <Skeleton variant="circular" width={46} height={46} sx={{ flexShrink: 0 }} />
          <Box sx={{ flex: 1 }}>
            <Skeleton width="55%" height={20} />
            <Skeleton width="85%" height={18} />
            <Skeleton width="40%" height={18} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * One tab's tickets (core §2): an infinite list (the next page within ~100 px of the bottom), virtualized
 * so thousands of rows stay smooth. The scroll container is the `tickets-list` test id.
 */
export function TicketsList({ filters, selectedUuid, canPeek, acceptingId, emptyMessage, onOpen, onAccept, onPeek }: Props) {
  const { t } = useTranslation("tickets");
  const list = useTicketsList(filters);
  const tickets = useMemo(() => flattenTickets(list.data), [list.data]);
  const { hasNextPage, isFetching, fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const { ref, onScroll } = useInfiniteScroll<HTMLDivElement>({
    hasMore: hasNextPage,
    loading: isFetching,
    loadMore,
  });

  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => ref.current,
    estimateSize: () => TICKET_ITEM_HEIGHT,
    getItemKey: (index) => tickets[index]?.id ?? index,
    overscan: 8,
    useFlushSync: false,
  });

  // core §8: a list that cannot load says so with one fixed text.
  useEffect(() => {
    if (!list.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [list.isError, t]);

  const items = virtualizer.getVirtualItems();
  const empty = !list.isPending && tickets.length === 0;

  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="tickets-list"
      sx={{ flex: 1, minHeight: 0, overflowY: "auto", overflowX: "hidden", position: "relative", overscrollBehavior: "contain" }}
    >
      {list.isFetching && !list.isPending && !list.isFetchingNextPage && (
        <ThinProgress sx={{ position: "sticky", top: 0, height: 2, mb: "-2px", zIndex: 1 }} />
      )}
      {list.isPending && list.fetchStatus !== "idle" && <LoadingRows />}
      {empty && (
        <Box
          data-testid="tickets-empty"
          sx={{ display: "flex", flexDirection: "column", alignItems: "center", textAlign: "center", gap: 1, px: 4, py: 8 }}
        >
          <Box
            sx={{
              width: 64,
              height: 64,
              borderRadius: "50%",
              display: "grid",
              placeItems: "center",
              bgcolor: "action.hover",
              color: "text.secondary",
              mb: 1,
            }}
          >
            <InboxIcon sx={{ fontSize: 32 }} />
          </Box>
          <Typography sx={{ fontWeight: 600 }}>{t("empty.title")}</Typography>
          <Typography variant="body2" sx={{ color: "text.secondary", maxWidth: 280 }}>
            {emptyMessage}
          </Typography>
        </Box>
      )}
      {tickets.length > 0 && (
        <Box role="list" sx={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
          {items.map((item) => {
            const ticket = tickets[item.index];
            return (
              <Box
                key={item.key}
                role="listitem"
                data-index={item.index}
                ref={virtualizer.measureElement}
                sx={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${item.start}px)` }}
              >
                <TicketListItem
                  ticket={ticket}
                  selected={ticket.uuid === selectedUuid}
                  canPeek={canPeek}
                  accepting={acceptingId === ticket.id}
                  onOpen={onOpen}
                  onAccept={onAccept}
                  onPeek={onPeek}
                />
              </Box>
            );
          })}
        </Box>
      )}
      {list.isFetchingNextPage && <ThinProgress sx={{ height: 2 }} />}
    </Box>
  );
}
