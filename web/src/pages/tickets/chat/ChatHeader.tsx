import type { ContactView, TicketView } from "@charla/contracts";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import PersonIcon from "@mui/icons-material/PersonOutlined";
import PhoneIcon from "@mui/icons-material/PhoneAndroid";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { formatPhoneNumber } from "../../../lib/phone";
import { ContactAvatar } from "../../contacts/ContactAvatar";

type Props = {
  ticket: TicketView;
  contact: ContactView | undefined;
  compact: boolean;
  /** Shown on phones, where the list is another tab. */
  showBack: boolean;
  onOpenContact: () => void;
  actions: ReactNode;
  /** Meta's 24-hour window of a Cloud API chat, when it has one. */
  windowInfo?: ReactNode;
};

const STATUS_COLOR = { pending: "warning", open: "success", closed: "default" } as const;

function InfoPart({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.4, minWidth: 0 }}>
      {icon}
      <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis" }}>
        {children}
      </Box>
    </Box>
  );
}

/** core §2 chat header: the contact (opens the contact drawer), who has it, where it came in, actions. */
export function ChatHeader({ ticket, contact, compact, showBack, onOpenContact, actions, windowInfo }: Props) {
  const { t } = useTranslation("chat");
  const navigate = useNavigate();
  const name = contact?.name || ticket.contact.name || formatPhoneNumber(ticket.contact.number);
  const picture = contact?.profilePicUrl ?? ticket.contact.profilePicUrl;
  const parts: ReactNode[] = [];
  parts.push(
    <InfoPart key="user" icon={<PersonIcon sx={{ fontSize: 14 }} />}>
      {ticket.user ? t("header.assignedTo", { name: ticket.user.name }) : t("header.unassigned")}
    </InfoPart>,
  );
  if (ticket.queue) {
    parts.push(
      <InfoPart
        key="queue"
        icon={
          <Box component="span" sx={{ width: 8, height: 8, borderRadius: "50%", bgcolor: ticket.queue.color, flexShrink: 0 }} />
        }
      >
        {ticket.queue.name}
      </InfoPart>,
    );
  }
  if (ticket.whatsapp && !compact) {
    parts.push(
      <InfoPart key="wa" icon={<PhoneIcon sx={{ fontSize: 13 }} />}>
        {ticket.whatsapp.name}
      </InfoPart>,
    );
  }
  return (
    <Box
      data-testid="chat-header"
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        px: { xs: 1, sm: 2 },
        py: 1,
        minHeight: 64,
        bgcolor: "background.paper",
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      {showBack && (
        <IconButton onClick={() => navigate("/tickets")} aria-label={t("header.back")} edge="start">
          <ArrowBackIcon />
        </IconButton>
      )}
      <Box
        component="button"
        type="button"
        onClick={onOpenContact}
        data-testid="contact-drawer-open"
        aria-label={t("header.openContact")}
        sx={{
          all: "unset",
          cursor: "pointer",
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          flex: 1,
          minWidth: 0,
          borderRadius: 1,
          "&:focus-visible": { outline: 2, outlineColor: "primary.main", outlineStyle: "solid" },
        }}
      >
        <ContactAvatar id={ticket.contactId} name={name} profilePicUrl={picture} size={42} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
            <Typography noWrap sx={{ fontWeight: 600, fontSize: 16 }} data-testid="chat-contact-name">
              {name}
            </Typography>
            {!compact && (
              <Chip
                size="small"
                color={STATUS_COLOR[ticket.status]}
                label={t(`status.${ticket.status}`)}
                variant="outlined"
                sx={{ height: 20, fontSize: 11 }}
              />
            )}
          </Box>
          <Typography
            variant="caption"
            component="div"
            sx={{ color: "text.secondary", display: "flex", gap: 1.25, whiteSpace: "nowrap", overflow: "hidden", minWidth: 0 }}
          >
            {windowInfo}
            {parts}
          </Typography>
        </Box>
      </Box>
      {actions}
    </Box>
  );
}
