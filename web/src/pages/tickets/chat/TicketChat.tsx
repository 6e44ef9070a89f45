import type { MessageView, TicketView } from "@charla/contracts";
import SearchOffIcon from "@mui/icons-material/SearchOff";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "../../../lib/toast";
import { ApiError } from "../../../api/client";
import { contactCollection } from "../../../api/contacts";
import { toastError } from "../../../api/errors";
import { useDeleteTicket } from "../../../api/ticket-actions";
import { useTicketByUuid } from "../../../api/tickets";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { ChatFooter } from "./ChatFooter";
import { ChatWindowInfo } from "./ChatWindowInfo";
import { ChatHeader } from "./ChatHeader";
import { ContactDrawer } from "./ContactDrawer";
import { MessageList } from "./MessageList";
import { TagPicker } from "./TagPicker";
import { TicketActions } from "./TicketActions";
import { TransferModal } from "./TransferModal";
import { TICKET_DELETED_TOAST, useChatEvents } from "./use-chat-events";
import { useChatWindowState } from "./use-chat-window";
import { useElementWidth } from "./use-element-width";
import { useTicketTransitions } from "./use-ticket-transitions";

// Below this the header keeps only its main action; from the second the contact drawer fits beside the chat.
const COMPACT_BELOW_PX = 560;
const INLINE_DRAWER_FROM_PX = 980;

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function ChatView({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("chat");
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const rootRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(rootRef);
  const contact = contactCollection.useRecord(ticket.contactId);
  const transitions = useTicketTransitions(ticket);
  const remove = useDeleteTicket();
  const [replyTo, setReplyTo] = useState<MessageView | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const chatWindow = useChatWindowState(ticket);
  useChatEvents(ticket);

  const cancelReply = useCallback(() => setReplyTo(null), []);
  const inlineDrawer = width >= INLINE_DRAWER_FROM_PX;
  const chatWidth = inlineDrawer && drawerOpen ? width - 320 : width;

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(ticket);
      toast.success(t("ticket.deletedLive"), { toastId: TICKET_DELETED_TOAST });
      navigate("/tickets");
    } catch (error) {
      toastError(error);
    } finally {
      setDeleteOpen(false);
    }
  };

  return (
    <Box
      ref={rootRef}
      data-testid="chat"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      sx={{ display: "flex", flex: 1, minHeight: 0, minWidth: 0, height: "100%" }}
    >
      <Box sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <ChatHeader
          ticket={ticket}
          contact={contact.data}
          compact={chatWidth < COMPACT_BELOW_PX}
          showBack={phone}
          onOpenContact={() => setDrawerOpen((open) => !open)}
          windowInfo={<ChatWindowInfo state={chatWindow} />}
          actions={
            <TicketActions
              ticket={ticket}
              compact={chatWidth < COMPACT_BELOW_PX}
              busy={transitions.busy}
              onTransition={(transition) => void transitions.run(transition)}
              onTransfer={() => setTransferOpen(true)}
              onDelete={() => setDeleteOpen(true)}
            />
          }
        />
        <TagPicker ticket={ticket} />
        <MessageList
          ticket={ticket}
          focusMessageId={positiveInt(params.get("messageId"))}
          highlight={params.get("highlight")}
          onReply={setReplyTo}
        />
        <ChatFooter
          ticket={ticket}
          replyTo={replyTo}
          onCancelReply={cancelReply}
          templatesOnly={chatWindow.applies && !chatWindow.open}
          busy={transitions.busy}
          onTransition={(transition) => void transitions.run(transition)}
        />
      </Box>
      <ContactDrawer
        ticket={ticket}
        contact={contact.data}
        open={drawerOpen}
        inline={inlineDrawer}
        onClose={() => setDrawerOpen(false)}
      />
      {transferOpen && <TransferModal ticket={ticket} open onClose={() => setTransferOpen(false)} />}
      <ConfirmDialog
        open={deleteOpen}
        title={t("ticket.deleteTitle")}
        confirmLabel={t("actions.delete")}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleteOpen(false)}
      >
        {t("ticket.deleteText")}
      </ConfirmDialog>
    </Box>
  );
}

function Placeholder({ children }: { children: React.ReactNode }) {
  return (
    <Box data-testid="chat" sx={{ flex: 1, display: "grid", placeItems: "center", p: 3, height: "100%", textAlign: "center" }}>
      {children}
    </Box>
  );
}

/** core §2 chat view of /tickets/{uuid}: loads the ticket; an unknown or hidden one reads as not found. */
export function TicketChat({ uuid }: { uuid: string }) {
  const { t } = useTranslation("chat");
  const navigate = useNavigate();
  const query = useTicketByUuid(uuid);
  if (query.isPending) {
    return (
      <Placeholder>
        <CircularProgress />
      </Placeholder>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Placeholder>
        <Box
          sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1.5 }}
          data-testid={notFound ? "chat-not-found" : "chat-error"}
        >
          <SearchOffIcon sx={{ fontSize: 56, color: "text.disabled" }} />
          <Typography variant="h6">{t(notFound ? "notFound.title" : "notFound.errorTitle")}</Typography>
          <Typography variant="body2" sx={{ color: "text.secondary", maxWidth: 360 }}>
            {t(notFound ? "notFound.text" : "notFound.errorText")}
          </Typography>
          <Box sx={{ display: "flex", gap: 1 }}>
            {!notFound && (
              <Button variant="outlined" onClick={() => void query.refetch()}>
                {t("list.retry")}
              </Button>
            )}
            <Button variant="contained" onClick={() => navigate("/tickets")}>
              {t("notFound.back")}
            </Button>
          </Box>
        </Box>
      </Placeholder>
    );
  }
  return <ChatView key={query.data.id} ticket={query.data} />;
}

export default TicketChat;
