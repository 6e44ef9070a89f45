import GroupsIcon from "@mui/icons-material/Groups";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import RobotIcon from "@mui/icons-material/SmartToyOutlined";
import VisibilityIcon from "@mui/icons-material/VisibilityOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import { alpha, useTheme } from "@mui/material/styles";
import Tooltip from "../../components/LightTooltip";
import Typography from "@mui/material/Typography";
import { type KeyboardEvent, memo, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "../../api/tickets";
import { ContactAvatar } from "../contacts/ContactAvatar";
import { MessageText } from "./chat/MessageText";
import { preloadPeekDialog } from "./dialogs";
import { toast } from "../../lib/toast";
import { ResolvePendingButton } from "./ResolvePendingButton";
import { contactLabel, listTime, oneLine, tagColors } from "./ticket-format";
import { useBotHold } from "./use-bot-hold";

/** The list's row height; the virtualizer measures each row, this is its first guess. */
export const TICKET_ITEM_HEIGHT = 84;

type Props = {
  ticket: TicketView;
  selected: boolean;
  canPeek: boolean;
  accepting: boolean;
  onOpen: (ticket: TicketView) => void;
  onAccept: (ticket: TicketView) => void;
  onPeek: (ticket: TicketView) => void;
};

type TagProps = {
  label: string;
  bg: string;
  fg: string;
  icon?: ReactNode;
  title?: string;
  testId?: string;
  /** Connection, user and queue keep their width (up to the cap); tags give way first when the row is tight. */
  keep?: boolean;
};

/** A small label of the third row; long names are cut with an ellipsis, the full text is its tooltip. */
function Tag({ label, bg, fg, icon, title, testId, keep = false }: TagProps) {
  return (
    <Box
      component="span"
      title={title ?? label}
      data-testid={testId}
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.25,
        flexShrink: keep ? 0 : 1,
        minWidth: 32,
        maxWidth: 120,
        height: 18,
        px: 0.75,
        borderRadius: 0.75,
        bgcolor: bg,
        color: fg,
        fontSize: 11,
        fontWeight: 500,
        lineHeight: "18px",
        whiteSpace: "nowrap",
        "& svg": { fontSize: 12, flexShrink: 0 },
      }}
    >
      {icon}
      <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis" }}>
        {label}
      </Box>
    </Box>
  );
}

const stop = (event: MouseEvent | KeyboardEvent) => event.stopPropagation();

/**
 * core §2 list item: contact, queue colour strip, connection / user / queue / contact tags, unread
 * badge, last message and time, a robot when the chatbot holds it. Pending tickets are accepted, not
 * opened; one the bot still serves is only read by an agent, in the peek dialog (issue 26).
 * Everything the contact controls is rendered as text.
 */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  canPeek,
  accepting,
  onOpen,
  onAccept,
  onPeek,
}: Props) {
  const { t } = useTranslation("tickets");
  const theme = useTheme();
  const pending = ticket.status === "pending";
  const botHolds = useBotHold(ticket);
  const acceptable = pending && !botHolds;
  const unread = ticket.unreadMessages > 0;
  const name = contactLabel(ticket.contact);
  const queue = tagColors(theme, ticket.queue?.color);
  const neutral = { bg: alpha(theme.palette.text.primary, 0.07), fg: theme.palette.text.secondary };
  const unreadColor = theme.palette.mode === "dark" ? "#00a884" : "#1fa855";
  const open = () => {
    if (botHolds) onPeek(ticket);
    // core §4: a pending ticket is accepted, not opened; the click says so (issue 26: it said nothing)
    else if (pending) toast.info(t("item.acceptToAnswer"), { toastId: "ticket-accept-to-answer" });
    else onOpen(ticket);
  };

  return (
    <Box
      data-testid="ticket-item"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      data-bot-holds={botHolds || undefined}
      aria-current={selected ? "true" : undefined}
      role="button"
      tabIndex={0}
      onClick={open}
      onKeyDown={(event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          open();
        }
      }}
      sx={{
        position: "relative",
        display: "flex",
        alignItems: "center",
        gap: 1.25,
        minHeight: TICKET_ITEM_HEIGHT,
        pl: 1.75,
        pr: 1.25,
        py: 1,
        cursor: acceptable ? "default" : "pointer",
        bgcolor: selected ? "action.selected" : "transparent",
        borderBottom: 1,
        borderColor: "divider",
        outline: "none",
        transition: "background-color 120ms",
        "&:hover": { bgcolor: selected ? "action.selected" : "action.hover" },
        "&:focus-visible": { boxShadow: `inset 0 0 0 2px ${theme.palette.primary.main}` },
      }}
    >
      <Box
        aria-hidden
        sx={{
          position: "absolute",
          left: 0,
          top: 0,
          bottom: 0,
          width: 4,
          bgcolor: ticket.queue ? queue.bg : "divider",
        }}
      />
      <ContactAvatar id={ticket.contact.id} name={name} profilePicUrl={ticket.contact.profilePicUrl} size={46} />
      <Box sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column", gap: 0.25 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
          {ticket.isGroup && <GroupsIcon sx={{ fontSize: 16, color: "text.secondary" }} titleAccess={t("item.group")} />}
          <Typography
            noWrap
            sx={{ flex: 1, minWidth: 0, fontSize: 15, fontWeight: unread ? 700 : 600, lineHeight: 1.35 }}
            data-testid="ticket-item-name"
          >
            {name}
          </Typography>
          <Typography
            component="time"
            dateTime={ticket.updatedAt}
            data-testid="ticket-item-time"
            sx={{
              flexShrink: 0,
              fontSize: 12,
              color: unread ? unreadColor : "text.secondary",
              fontWeight: unread ? 600 : 400,
            }}
          >
            {listTime(ticket.updatedAt)}
          </Typography>
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
          {ticket.chatbot && (
            <Tooltip title={t(botHolds ? "item.botHolds" : "item.chatbot")}>
              <RobotIcon sx={{ fontSize: 16, color: "info.main", flexShrink: 0 }} data-testid="ticket-item-chatbot" />
            </Tooltip>
          )}
          <Typography
            noWrap
            sx={{
              flex: 1,
              minWidth: 0,
              fontSize: 13.5,
              color: unread ? "text.primary" : "text.secondary",
              lineHeight: 1.4,
            }}
            data-testid="ticket-item-last-message"
          >
            {/* WhatsApp formatting as in the chat, on one line; links stay text inside the clickable row */}
            {oneLine(ticket.lastMessage) ? <MessageText text={oneLine(ticket.lastMessage)} links={false} /> : "\u00a0"}
          </Typography>
          {unread && (
            <Box
              data-testid="ticket-item-unread"
              aria-label={t("item.unread", { count: ticket.unreadMessages })}
              sx={{
                flexShrink: 0,
                minWidth: 20,
                height: 20,
                px: 0.75,
                borderRadius: 10,
                bgcolor: unreadColor,
                color: "#fff",
                fontSize: 11.5,
                fontWeight: 700,
                lineHeight: "20px",
                textAlign: "center",
              }}
            >
              {ticket.unreadMessages > 999 ? "999+" : ticket.unreadMessages}
            </Box>
          )}
        </Box>
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0, minHeight: 24 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, flex: 1, minWidth: 0, overflow: "hidden" }}>
            {ticket.whatsapp && (
              <Tag
                label={ticket.whatsapp.name}
                bg={neutral.bg}
                fg={neutral.fg}
                icon={<WhatsAppIcon />}
                title={t("item.connection", { name: ticket.whatsapp.name })}
                testId="ticket-item-connection"
                keep
              />
            )}
            {ticket.user && (
              <Tag
                label={ticket.user.name}
                bg={neutral.bg}
                fg={neutral.fg}
                icon={<PersonIcon />}
                title={t("item.user", { name: ticket.user.name })}
                testId="ticket-item-user"
                keep
              />
            )}
            {ticket.queue ? (
              <Tag
                label={ticket.queue.name}
                bg={queue.bg}
                fg={queue.fg}
                title={t("item.queue", { name: ticket.queue.name })}
                testId="ticket-item-queue"
                keep
              />
            ) : (
              <Tag label={t("item.noQueue")} bg="transparent" fg={theme.palette.text.disabled} testId="ticket-item-queue" />
            )}
            {ticket.tags.map((tag) => {
              const colors = tagColors(theme, tag.color);
              return <Tag key={tag.id} label={tag.name} bg={colors.bg} fg={colors.fg} testId="ticket-item-tag" />;
            })}
          </Box>
          {(canPeek || botHolds) && (
            <Tooltip title={t("item.peek")}>
              <IconButton
                size="small"
                aria-label={t("item.peek")}
                data-testid="ticket-item-peek"
                onPointerEnter={preloadPeekDialog}
                onFocus={preloadPeekDialog}
                onClick={(event) => {
                  stop(event);
                  onPeek(ticket);
                }}
                onKeyDown={stop}
                sx={{ p: 0.25, color: "text.secondary" }}
              >
                <VisibilityIcon sx={{ fontSize: 18 }} />
              </IconButton>
            </Tooltip>
          )}
          {botHolds && (
            <Typography
              component="span"
              data-testid="ticket-item-bot-holds"
              sx={{ flexShrink: 0, fontSize: 12, color: "info.main", whiteSpace: "nowrap" }}
            >
              {t("item.inBot")}
            </Typography>
          )}
          {acceptable && <ResolvePendingButton ticket={ticket} />}
          {acceptable && (
            <Button
              size="small"
              variant="contained"
              color="success"
              data-testid="ticket-item-accept"
              disabled={accepting}
              onClick={(event) => {
                stop(event);
                onAccept(ticket);
              }}
              onKeyDown={stop}
              startIcon={accepting ? <CircularProgress size={12} color="inherit" /> : undefined}
              sx={{ flexShrink: 0, minWidth: 0, height: 24, px: 1.25, fontSize: 12, lineHeight: 1, textTransform: "none" }}
            >
              {t("item.accept")}
            </Button>
          )}
        </Box>
      </Box>
    </Box>
  );
});
