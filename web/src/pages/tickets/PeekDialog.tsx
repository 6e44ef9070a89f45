import type { MessageView } from "@charla/contracts";
import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { type TicketView, usePeekMessages } from "../../api/tickets";
import { formatDate, formatTime, sameDay } from "../../lib/company-time";
import { ContactAvatar } from "../contacts/ContactAvatar";
import { MessageText } from "./chat/MessageText";
import { contactLabel } from "./ticket-format";

type Props = { ticket: TicketView | null; onClose: () => void };

/** Oldest first, each message once. */
function ordered(pages: { messages: MessageView[] }[] | undefined): MessageView[] {
  const byId = new Map<number, MessageView>();
  for (const page of pages ?? []) for (const message of page.messages) if (!byId.has(message.id)) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/**
 * core §2: the admin's read-only look at a conversation from the list, without marking it read
 * (`peek=true`). Bodies are formatted as in the chat; media show what kind they are.
 */
export function PeekDialog({ ticket: requested, onClose }: Props) {
  const { t } = useTranslation("tickets");
  const firstPageShown = useRef(false);
  // The last ticket stays on screen while the dialog fades out.
  const [ticket, setTicket] = useState(requested);
  // Runs before the scroll effect below: each opening scrolls to the newest message again.
  useLayoutEffect(() => {
    if (!requested) return;
    firstPageShown.current = false;
    setTicket(requested);
  }, [requested]);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const dark = theme.palette.mode === "dark";
  const query = usePeekMessages(ticket?.id ?? null);
  const messages = useMemo(() => ordered(query.data?.pages), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (query.isError) toastError(query.error);
  }, [query.isError, query.error]);

  // The newest message is at the bottom and in view when the conversation first shows.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || !requested || messages.length === 0 || firstPageShown.current) return;
    firstPageShown.current = true;
    element.scrollTop = element.scrollHeight;
  }, [messages.length, requested]);

  const loadOlder = async () => {
    const element = scrollRef.current;
    const before = element ? element.scrollHeight - element.scrollTop : 0;
    await query.fetchNextPage();
    // Older messages go above: the one that was on top stays where it was.
    requestAnimationFrame(() => {
      if (element) element.scrollTop = element.scrollHeight - before;
    });
  };

  // What a bubble says: the body with its WhatsApp formatting (the chat's own renderer), after the
  // kind of media when there is one; a file's name is shown as it is.
  const bodyOf = (message: MessageView) => {
    if (message.isDeleted) return t("peek.deleted");
    const text = message.body.trim();
    if (message.mediaType === "chat") return <MessageText text={text} />;
    const kind = t(`media.${message.mediaType}`, { defaultValue: t("media.file") });
    if (message.mediaType === "locationMessage" || message.mediaType === "vcard") return kind;
    if (text && text !== message.mediaName) {
      return (
        <>
          {kind} · <MessageText text={text} />
        </>
      );
    }
    return message.mediaName ? `${kind} · ${message.mediaName}` : kind;
  };

  const name = ticket ? contactLabel(ticket.contact) : "";

  return (
    <Dialog
      open={requested !== null}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={narrow}
      slotProps={{ paper: { "data-testid": "peek-dialog", sx: { height: narrow ? "100%" : "80vh" } } as object }}
    >
      <DialogTitle sx={{ display: "flex", alignItems: "center", gap: 1.5, py: 1.25, pr: 1 }}>
        {ticket && <ContactAvatar id={ticket.contact.id} name={name} profilePicUrl={ticket.contact.profilePicUrl} size={36} />}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography noWrap sx={{ fontWeight: 600 }}>
            {name}
          </Typography>
          <Typography noWrap variant="caption" sx={{ color: "text.secondary", display: "block" }}>
            {t("peek.subtitle")}
          </Typography>
        </Box>
        <IconButton onClick={onClose} aria-label={t("common:actions.close")} data-testid="peek-close">
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent
        ref={scrollRef}
        dividers
        sx={{
          bgcolor: dark ? "#0b141a" : "#efeae2",
          px: { xs: 1.5, sm: 3 },
          py: 2,
          display: "flex",
          flexDirection: "column",
          gap: 0.75,
        }}
      >
        {query.hasNextPage && (
          <Button
            size="small"
            onClick={() => void loadOlder()}
            disabled={query.isFetchingNextPage}
            sx={{ alignSelf: "center", bgcolor: "background.paper", mb: 1, "&:hover": { bgcolor: "background.paper" } }}
          >
            {query.isFetchingNextPage ? <CircularProgress size={16} /> : t("peek.older")}
          </Button>
        )}
        {/* Short conversations sit at the bottom, next to where the newest message would be. */}
        <Box sx={{ flexGrow: 1 }} />
        {query.isPending && (
          <Box sx={{ display: "grid", placeItems: "center", flex: 1 }}>
            <CircularProgress size={28} />
          </Box>
        )}
        {!query.isPending && messages.length === 0 && (
          <Typography sx={{ m: "auto", color: "text.secondary" }}>{t("peek.empty")}</Typography>
        )}
        {messages.map((message, index) => {
          const newDay = index === 0 || !sameDay(message.createdAt, messages[index - 1].createdAt);
          return (
            <Fragment key={message.id}>
              {newDay && (
                <Box
                  sx={{
                    alignSelf: "center",
                    my: 1,
                    px: 1.5,
                    py: 0.25,
                    borderRadius: 1.5,
                    fontSize: 12,
                    bgcolor: dark ? "#182229" : "#ffffff",
                    color: "text.secondary",
                    boxShadow: 1,
                  }}
                >
                  {formatDate(message.createdAt)}
                </Box>
              )}
              <Box
                data-testid="peek-message"
                data-from-me={message.fromMe}
                sx={{
                  alignSelf: message.fromMe ? "flex-end" : "flex-start",
                  maxWidth: "80%",
                  px: 1.25,
                  pt: 0.75,
                  pb: 0.5,
                  borderRadius: 2,
                  bgcolor: message.fromMe ? (dark ? "#005c4b" : "#d9fdd3") : dark ? "#202c33" : "#ffffff",
                  color: dark ? "#e9edef" : "#111b21",
                  boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
                }}
              >
                {message.participantName && !message.fromMe && (
                  <Typography sx={{ fontSize: 12.5, fontWeight: 600, color: "primary.main" }}>
                    {message.participantName}
                  </Typography>
                )}
                <Typography
                  sx={{
                    fontSize: 14,
                    whiteSpace: "pre-wrap",
                    overflowWrap: "anywhere",
                    fontStyle: message.isDeleted || message.mediaType !== "chat" ? "italic" : "normal",
                    opacity: message.isDeleted ? 0.7 : 1,
                  }}
                >
                  {bodyOf(message)}
                </Typography>
                <Typography sx={{ fontSize: 11, textAlign: "right", opacity: 0.6, mt: 0.25 }}>
                  {formatTime(message.createdAt)}
                </Typography>
              </Box>
            </Fragment>
          );
        })}
      </DialogContent>
    </Dialog>
  );
}
