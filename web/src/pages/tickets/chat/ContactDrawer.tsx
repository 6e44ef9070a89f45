import type { ContactView, TicketView } from "@charla/contracts";
import CloseIcon from "@mui/icons-material/Close";
import EditIcon from "@mui/icons-material/EditOutlined";
import EmailIcon from "@mui/icons-material/EmailOutlined";
import PhoneIcon from "@mui/icons-material/PhoneOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatPhoneNumber } from "../../../lib/phone";
import { ContactAvatar } from "../../contacts/ContactAvatar";
import { ContactModal } from "../../contacts/ContactModal";
import { ScheduleContactAction } from "../../schedules/ScheduleContactAction";
import { TicketNotes } from "./TicketNotes";

/** core §9: the contact drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

type Props = {
  ticket: TicketView;
  contact: ContactView | undefined;
  open: boolean;
  /** Beside the chat when there is room; over it otherwise. */
  inline: boolean;
  onClose: () => void;
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ px: 2, py: 1.5 }}>
      <Typography variant="overline" sx={{ color: "text.secondary", display: "block", mb: 0.75, lineHeight: 1.6 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Line({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, color: "text.secondary", minWidth: 0 }}>
      {icon}
      <Typography variant="body2" noWrap sx={{ color: "text.primary" }}>
        {children}
      </Typography>
    </Box>
  );
}

function DrawerContent({ ticket, contact, onClose }: Omit<Props, "open" | "inline">) {
  const { t } = useTranslation("chat");
  const [editing, setEditing] = useState(false);
  const name = contact?.name ?? ticket.contact.name;
  const number = contact?.number ?? ticket.contact.number;
  const extra = contact?.extraInfo ?? [];
  return (
    <Box
      data-testid="contact-drawer"
      sx={{
        width: CONTACT_DRAWER_WIDTH,
        maxWidth: "100vw",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        bgcolor: "background.paper",
        "& .MuiButton-root": { textTransform: "none", fontWeight: 600, borderRadius: 5 },
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1, minHeight: 64, borderBottom: 1, borderColor: "divider" }}>
        <IconButton onClick={onClose} aria-label={t("common:actions.close")} data-testid="contact-drawer-close">
          <CloseIcon />
        </IconButton>
        <Typography sx={{ fontWeight: 600 }}>{t("drawer.title")}</Typography>
      </Box>
      <Box sx={{ flex: 1, overflowY: "auto" }}>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 1, px: 2, pt: 3, pb: 2 }}>
          <ContactAvatar
            id={ticket.contactId}
            name={name}
            profilePicUrl={contact?.profilePicUrl ?? ticket.contact.profilePicUrl}
            size={96}
          />
          <Typography
            variant="h6"
            sx={{ fontWeight: 600, textAlign: "center", overflowWrap: "anywhere" }}
            data-testid="contact-drawer-name"
          >
            {name}
          </Typography>
          <Box sx={{ display: "flex", flexDirection: "column", gap: 0.5, alignSelf: "stretch", alignItems: "center" }}>
            {number && <Line icon={<PhoneIcon fontSize="small" />}>{formatPhoneNumber(number)}</Line>}
            {contact?.email && <Line icon={<EmailIcon fontSize="small" />}>{contact.email}</Line>}
          </Box>
          <Button
            variant="outlined"
            size="small"
            startIcon={<EditIcon />}
            onClick={() => setEditing(true)}
            data-testid="contact-drawer-edit"
            sx={{ mt: 1 }}
          >
            {t("drawer.edit")}
          </Button>
          <ScheduleContactAction contactId={ticket.contactId} variant="button" />
        </Box>
        <Divider />
        {extra.length > 0 && (
          <>
            <Section title={t("drawer.extraInfo")}>
              <Box component="dl" sx={{ m: 0, display: "flex", flexDirection: "column", gap: 1 }}>
                {extra.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: extra info items have no id and may repeat names
                  <Box key={`${item.name}-${i}`}>
                    <Typography component="dt" variant="caption" sx={{ color: "text.secondary" }}>
                      {item.name}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: "anywhere" }}>
                      {item.value}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Section>
            <Divider />
          </>
        )}
        <Section title={t("notes.title")}>
          <TicketNotes ticket={ticket} />
        </Section>
      </Box>
      {editing && <ContactModal open contactId={ticket.contactId} onClose={() => setEditing(false)} />}
    </Box>
  );
}

/** core §2 contact drawer: details, edit (the contacts page's modal), extra info and notes. */
export function ContactDrawer({ open, inline, ...props }: Props) {
  if (inline) {
    if (!open) return null;
    return (
      <Box sx={{ width: CONTACT_DRAWER_WIDTH, flexShrink: 0, borderLeft: 1, borderColor: "divider", minHeight: 0 }}>
        <DrawerContent {...props} />
      </Box>
    );
  }
  return (
    <Drawer anchor="right" open={open} onClose={props.onClose}>
      <DrawerContent {...props} />
    </Drawer>
  );
}
