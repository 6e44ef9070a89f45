import type { MessageView, TicketView } from "@charla/contracts";
import ArrowDownIcon from "@mui/icons-material/KeyboardDoubleArrowDown";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Fab from "@mui/material/Fab";
import Typography from "@mui/material/Typography";
import { Fragment, type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../api/errors";
import { flattenMessages, useDeleteMessage, useMessages } from "../../../api/messages";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useBubbleColors } from "./chat-colors";
import { MessageBubble } from "./MessageBubble";
import { MessageText } from "./MessageText";
import { sameDay } from "../../../lib/company-time";
import { continues, dayLabel, previewOf } from "./message-parts";
import { useChatScroll } from "./use-chat-scroll";

const MAX_PAGES_TO_FOCUS = 25;
/** How long the floating day label stays after the last scroll (as on a phone). */
const FLOATING_DAY_MS = 1200;

type Props = {
  ticket: TicketView;
  /** The route's `messageId`: scrolled to and flashed once loaded. */
  focusMessageId: number | null;
  /** The route's `highlight`: matches are marked in the texts. */
  highlight: string | null;
  onReply: (message: MessageView) => void;
};

function DayLabel({ iso, testId }: { iso: string; testId: string }) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  return (
    <Typography
      variant="caption"
      data-testid={testId}
      data-day={iso}
      sx={{
        px: 1.5,
        py: 0.5,
        borderRadius: 2,
        bgcolor: colors.divider,
        color: colors.text,
        opacity: 0.9,
        fontWeight: 500,
        boxShadow: "0 1px 0.5px rgba(11, 20, 26, 0.13)",
        textTransform: "uppercase",
        fontSize: 11.5,
        letterSpacing: 0.3,
      }}
    >
      {dayLabel(iso, t)}
    </Typography>
  );
}

/** In the flow between days; it scrolls with the messages and never covers them. */
function DayDivider({ iso }: { iso: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "center", my: 1.5 }}>
      <DayLabel iso={iso} testId="day-divider" />
    </Box>
  );
}

/**
 * While scrolling, the day of the messages at the top floats over them, then fades away: a label
 * fixed there for good would cover the text under it.
 */
function useFloatingDay(container: RefObject<HTMLDivElement | null>) {
  const [day, setDay] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onScroll = useCallback(() => {
    const element = container.current;
    if (!element) return;
    const top = element.getBoundingClientRect().top;
    let current: string | null = null;
    for (const divider of element.querySelectorAll<HTMLElement>('[data-testid="day-divider"]')) {
      if (divider.getBoundingClientRect().top >= top) break;
      current = divider.dataset.day ?? null;
    }
    setDay(current);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setDay(null), FLOATING_DAY_MS);
  }, [container]);
  return { day, onScroll };
}

/** Where one ticket of the contact ends and the next begins (core §2 markers). */
function ConversationMarker() {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const line = (text: string, testId: string) => (
    <Typography
      variant="caption"
      data-testid={testId}
      sx={{ display: "block", textAlign: "center", color: colors.text, opacity: 0.75, fontStyle: "italic" }}
    >
      {text}
    </Typography>
  );
  return (
    <Box sx={{ my: 2, py: 1, borderTop: 1, borderBottom: 1, borderColor: "divider", borderStyle: "dashed" }}>
      {line(t("list.conversationClosed"), "conversation-closed")}
      {line(t("list.conversationStarted"), "conversation-started")}
    </Box>
  );
}

/** The conversation (core §2 message list): day dividers, pages of older messages on top, bubbles. */
export function MessageList({ ticket, focusMessageId, highlight, onReply }: Props) {
  const { t } = useTranslation("chat");
  const colors = useBubbleColors();
  const query = useMessages(ticket.id);
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const remove = useDeleteMessage();
  const [toDelete, setToDelete] = useState<MessageView | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadOlder = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const scroll = useChatScroll({ messages, hasOlder: !!hasNextPage, loadingOlder: isFetchingNextPage, loadOlder });
  const { reveal } = scroll;
  const floating = useFloatingDay(scroll.containerRef);
  const { onScroll: onScrollList } = scroll;
  const onScroll = useCallback(() => {
    onScrollList();
    floating.onScroll();
  }, [onScrollList, floating.onScroll]);

  const focus = useCallback(
    (messageId: number, smooth: boolean) => {
      if (!reveal(messageId, smooth)) return false;
      setFocused(null);
      requestAnimationFrame(() => setFocused(messageId));
      return true;
    },
    [reveal],
  );

  // The route's messageId, once, as soon as that message is among the loaded ones.
  const [focusDone, setFocusDone] = useState<number | null>(null);
  // Not among them yet: older pages are read until it turns up (a search result may be far back).
  const pagesLoaded = query.data?.pages.length ?? 0;
  useEffect(() => {
    if (focusMessageId === null || focusDone === focusMessageId || pagesLoaded === 0) return;
    if (messages.some((m) => m.id === focusMessageId)) {
      if (focus(focusMessageId, false)) setFocusDone(focusMessageId);
    } else if (hasNextPage && !isFetchingNextPage && pagesLoaded < MAX_PAGES_TO_FOCUS) {
      void fetchNextPage();
    }
  }, [focusMessageId, focusDone, messages, focus, pagesLoaded, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onQuoteClick = useCallback(
    (messageId: number) => {
      if (!focus(messageId, true)) toast.info(t("message.quoteNotLoaded"), { toastId: "quote-not-loaded" });
    },
    [focus, t],
  );

  const confirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete);
      toast.success(t("message.deleted"));
    } catch (error) {
      toastError(error);
    } finally {
      setToDelete(null);
    }
  };

  const contactName = ticket.contact.name || ticket.contact.number;
  return (
    <Box sx={{ position: "relative", flex: 1, minHeight: 0, display: "flex" }}>
      <Box
        ref={scroll.containerRef}
        onScroll={onScroll}
        data-testid="chat-messages"
        sx={{
          flex: 1,
          overflowY: "auto",
          overflowAnchor: "none",
          bgcolor: colors.wallpaper,
          backgroundImage: `radial-gradient(${colors.text}10 1px, transparent 1px)`,
          backgroundSize: "22px 22px",
        }}
      >
        <Box ref={scroll.contentRef} sx={{ pb: 2, pt: 1, minHeight: "100%", display: "flex", flexDirection: "column" }}>
          {hasNextPage && (
            <Box sx={{ display: "grid", placeItems: "center", py: 1.5 }}>
              <CircularProgress size={22} />
            </Box>
          )}
          {/* short conversations sit at the bottom, next to the composer */}
          {messages.length > 0 && <Box sx={{ flex: 1 }} />}
          {query.isLoading && (
            <Box sx={{ display: "grid", placeItems: "center", flex: 1 }}>
              <CircularProgress size={32} />
            </Box>
          )}
          {query.isError && (
            <Box sx={{ display: "grid", placeItems: "center", flex: 1, gap: 1 }}>
              <Typography variant="body2">{t("list.loadFailed")}</Typography>
              <Button size="small" variant="outlined" onClick={() => void query.refetch()}>
                {t("list.retry")}
              </Button>
            </Box>
          )}
          {query.isSuccess && messages.length === 0 && (
            <Box sx={{ display: "grid", placeItems: "center", flex: 1 }}>
              <Typography variant="body2" sx={{ px: 2, py: 1, borderRadius: 2, bgcolor: colors.divider, color: colors.text }}>
                {t("list.empty")}
              </Typography>
            </Box>
          )}
          {messages.map((message, i) => {
            const before = messages[i - 1];
            const newDay = !before || !sameDay(before.createdAt, message.createdAt);
            const newConversation = !!before && before.ticketId !== message.ticketId;
            return (
              <Fragment key={message.id}>
                {newConversation && <ConversationMarker />}
                {newDay && <DayDivider iso={message.createdAt} />}
                <MessageBubble
                  message={message}
                  grouped={!newDay && !newConversation && continues(before, message)}
                  contactName={contactName}
                  highlight={highlight}
                  focused={focused === message.id}
                  onReply={onReply}
                  onDelete={setToDelete}
                  onQuoteClick={onQuoteClick}
                />
              </Fragment>
            );
          })}
        </Box>
      </Box>
      {floating.day && (
        <Box
          sx={{
            position: "absolute",
            top: 8,
            left: 0,
            right: 0,
            display: "flex",
            justifyContent: "center",
            pointerEvents: "none",
            zIndex: 2,
          }}
        >
          <DayLabel iso={floating.day} testId="day-floating" />
        </Box>
      )}
      {scroll.showJump && (
        <Fab
          size="small"
          onClick={scroll.jumpToBottom}
          aria-label={t("list.toBottom")}
          sx={{
            position: "absolute",
            right: 20,
            bottom: 16,
            bgcolor: colors.theirs,
            color: colors.text,
            "&:hover": { bgcolor: colors.theirs },
          }}
        >
          <ArrowDownIcon />
        </Fab>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={t("message.deleteTitle")}
        confirmLabel={t("message.delete")}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      >
        {toDelete ? (
          // the preview as the bubble shows it (*bold*, ~strike~), not its markers
          <Trans
            t={t}
            i18nKey="message.deleteText"
            components={{ preview: <MessageText text={previewOf(toDelete, t).slice(0, 80)} links={false} /> }}
          />
        ) : (
          ""
        )}
      </ConfirmDialog>
    </Box>
  );
}
