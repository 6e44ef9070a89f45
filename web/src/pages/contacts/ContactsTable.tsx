import type { ContactView } from "@charla/contracts";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Ref, UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { ListTable, RowActions, narrowOnly, wideOnly } from "../../components/ListTable";
import { formatPhoneNumber } from "../../lib/phone";
import { ContactAvatar } from "./ContactAvatar";

type Props = {
  contacts: ContactView[];
  canDelete: boolean;
  loading: boolean;
  /** The empty text says whether nothing matched the search or there is nothing at all. */
  searching: boolean;
  scrollRef: Ref<HTMLDivElement>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  onEdit: (contact: ContactView) => void;
  onDelete: (contact: ContactView) => void;
  /** Opens the new-ticket modal with the contact chosen (core §2: a contact can open /tickets/{uuid}). */
  onStartTicket: (contact: ContactView) => void;
};

// Under 600 px the number moves under the name and the email column goes; name and actions always stay.
/** Contact names, numbers and emails are customer data: rendered only as React text. */
export function ContactsTable({
  contacts,
  canDelete,
  loading,
  searching,
  scrollRef,
  onScroll,
  onEdit,
  onDelete,
  onStartTicket,
}: Props) {
  const { t } = useTranslation("contacts");
  return (
    <ListTable
      testId="contacts"
      columns={[
        { label: t("columns.name") },
        { label: t("columns.number"), wide: true },
        { label: t("columns.email"), wide: true },
      ]}
      actionsLabel={t("columns.actions")}
      loading={loading}
      empty={contacts.length === 0 ? t(searching ? "emptySearch" : "empty") : null}
      scrollRef={scrollRef}
      onScroll={onScroll}
    >
      {contacts.map((contact) => {
        const number = contact.isGroup ? contact.number : formatPhoneNumber(contact.number);
        return (
          <TableRow key={contact.id} hover data-testid="contacts-row" data-contact-id={contact.id}>
            <TableCell>
              <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
                <ContactAvatar id={contact.id} name={contact.name} profilePicUrl={contact.profilePicUrl} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }}>
                    {contact.name}
                  </Typography>
                  {number && (
                    <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", whiteSpace: "nowrap" }}>
                      {number}
                    </Typography>
                  )}
                </Box>
              </Box>
            </TableCell>
            <TableCell sx={{ ...wideOnly, whiteSpace: "nowrap" }}>{number}</TableCell>
            <TableCell sx={{ ...wideOnly, wordBreak: "break-all" }}>{contact.email}</TableCell>
            <RowActions
              prefix="contact"
              onEdit={() => onEdit(contact)}
              onDelete={canDelete ? () => onDelete(contact) : undefined}
              extra={
                <Tooltip title={t("startTicket")}>
                  <IconButton
                    size="small"
                    aria-label={t("startTicket")}
                    data-testid="contact-start-ticket"
                    onClick={() => onStartTicket(contact)}
                  >
                    <WhatsAppIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              }
            />
          </TableRow>
        );
      })}
    </ListTable>
  );
}
