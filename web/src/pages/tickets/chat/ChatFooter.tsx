import type { MessageView, TicketView } from "@charla/contracts";
import LockIcon from "@mui/icons-material/LockOutlined";
import RobotIcon from "@mui/icons-material/SmartToyOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../../auth/context";
import { useBotHold } from "../use-bot-hold";
import { useBubbleColors } from "./chat-colors";
import { MessageInput } from "./MessageInput";
import { TemplateComposer } from "./TemplateComposer";
import type { Transition } from "./use-ticket-transitions";

const STAFF = new Set(["admin", "subadmin", "supervisor"]);

type Props = {
  ticket: TicketView;
  replyTo: MessageView | null;
  onCancelReply: () => void;
  busy: boolean;
  onTransition: (transition: Transition) => void;
  /** Meta's 24-hour window has closed: free text would be refused, only approved templates go. */
  templatesOnly: boolean;
};

function Notice({ text, action, icon }: { text: string; action?: ReactNode; icon?: ReactNode }) {
  const colors = useBubbleColors();
  return (
    <Box
      data-testid="composer-notice"
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        flexWrap: "wrap",
        gap: 1.5,
        px: 2,
        py: 1.5,
        bgcolor: colors.composer,
        borderTop: 1,
        borderColor: "divider",
        "& .MuiButton-root": { textTransform: "none", fontWeight: 600, borderRadius: 5, px: 2 },
      }}
    >
      {icon ?? <LockIcon fontSize="small" sx={{ color: "text.secondary" }} />}
      <Typography variant="body2" sx={{ color: "text.secondary" }}>
        {text}
      </Typography>
      {action}
    </Box>
  );
}

/**
 * The composer, shown only on an open ticket the viewer may answer (their own; staff any); otherwise
 * what it takes to answer (core §2, docs/api-inbox.md POST /messages). An agent only reads what the
 * chatbot still serves, until it lets go (issue 26).
 */
export function ChatFooter({ ticket, replyTo, onCancelReply, busy, onTransition, templatesOnly }: Props) {
  const { t } = useTranslation("chat");
  const me = useSessionUser();
  const staff = me.super || STAFF.has(me.profile);
  const botHolds = useBotHold(ticket);
  if (botHolds) {
    return <Notice text={t("composer.botHolds")} icon={<RobotIcon fontSize="small" sx={{ color: "info.main" }} />} />;
  }
  if (ticket.status === "pending") {
    return (
      <Notice
        text={t("composer.acceptFirst")}
        action={
          <Button
            variant="contained"
            size="small"
            onClick={() => onTransition("accept")}
            disabled={busy}
            data-testid="composer-accept"
          >
            {t("actions.accept")}
          </Button>
        }
      />
    );
  }
  if (ticket.status === "closed") {
    return (
      <Notice
        text={t("composer.closed")}
        action={
          <Button
            variant="outlined"
            size="small"
            onClick={() => onTransition("reopen")}
            disabled={busy}
            data-testid="composer-reopen"
          >
            {t("actions.reopen")}
          </Button>
        }
      />
    );
  }
  if (ticket.userId !== me.id && !staff) {
    return <Notice text={t("composer.otherUser", { name: ticket.user?.name ?? "" })} />;
  }
  if (templatesOnly) return <TemplateComposer key={ticket.id} ticket={ticket} />;
  return <MessageInput key={ticket.id} ticket={ticket} replyTo={replyTo} onCancelReply={onCancelReply} />;
}
