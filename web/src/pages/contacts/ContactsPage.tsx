import type { ContactView } from "@charla/contracts";
import ImportIcon from "@mui/icons-material/ImportContactsOutlined";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { contactCollection, useExportContacts, useImportContacts } from "../../api/contacts";
import { toastError } from "../../api/errors";
import { usePermission } from "../../auth/permissions";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { ToolbarButton } from "../../components/list-kit/ToolbarButton";
import { formatPhoneNumber } from "../../lib/phone";
import { toast } from "../../lib/toast";
import { ScheduleContactAction } from "../schedules/ScheduleContactAction";
import { NewTicketModal } from "../tickets/NewTicketModal";
import { ContactAvatar } from "./ContactAvatar";
import { ContactModal } from "./ContactModal";
import { ContactsFileImport } from "./ContactsFileImport";

const numberOf = (contact: ContactView) => (contact.isGroup ? contact.number : formatPhoneNumber(contact.number));

/**
 * core §2 Contacts: search, infinite scroll, contact modal, confirmed import from the phone, CSV export,
 * confirmed delete, and a conversation started from a contact's row. Names, numbers and emails are
 * customer data: rendered only as React text.
 */
export default function ContactsPage() {
  const { t } = useTranslation("contacts");
  const canDelete = usePermission("contacts-page:deleteContact");
  const remove = contactCollection.useDelete();
  const exporter = useExportContacts();
  const importer = useImportContacts();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  // The contact stays while the new-ticket modal closes.
  const [ticketFor, setTicketFor] = useState<ContactView | null>(null);
  const [ticketOpen, setTicketOpen] = useState(false);
  const exportCsv = async () => {
    try {
      await exporter.mutateAsync();
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
  };

  const confirmImport = async () => {
    try {
      const result = await importer.mutateAsync();
      toast.success(t("toasts.imported", result));
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
    setImportOpen(false);
  };

  return (
    <ListPage<ContactView>
      title={t("title")}
      testId="contacts"
      useRows={contactCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actions={
        <>
          <ToolbarButton
            label={t("import")}
            icon={<ImportIcon />}
            busy={importer.isPending}
            onClick={() => setImportOpen(true)}
            testId="contacts-import"
          />
          <ContactsFileImport />
          <ToolbarButton
            label={t("export")}
            icon={<DownloadIcon />}
            busy={exporter.isPending}
            onClick={() => void exportCsv()}
            testId="contacts-export"
          />
        </>
      }
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="contact"
      rowData={(contact) => ({ "data-contact-id": contact.id })}
      onEdit={(contact) => setEditing({ id: contact.id })}
      remove={
        canDelete
          ? {
              title: (contact) => t("confirmDelete.title", { name: contact.name }),
              message: t("confirmDelete.message"),
              run: (contact) => remove.mutateAsync(contact.id),
              done: t("toasts.deleted"),
            }
          : undefined
      }
      rowExtra={(contact) => (
        <>
          <ScheduleContactAction contactId={contact.id} variant="icon" />
          <Tooltip title={t("startTicket")}>
            <IconButton
              size="small"
              aria-label={t("startTicket")}
              data-testid="contact-start-ticket"
              onClick={() => {
                setTicketFor(contact);
                setTicketOpen(true);
              }}
            >
              <WhatsAppIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      )}
      // under 600 px the number moves under the name and the email column goes
      columns={[
        {
          label: t("columns.name"),
          cell: (contact) => (
            <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
              <ContactAvatar id={contact.id} name={contact.name} profilePicUrl={contact.profilePicUrl} />
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }}>
                  {contact.name}
                </Typography>
                {contact.number && (
                  <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", whiteSpace: "nowrap" }}>
                    {numberOf(contact)}
                  </Typography>
                )}
              </Box>
            </Box>
          ),
        },
        {
          label: t("columns.number"),
          wide: true,
          cell: (contact) => <Box sx={{ whiteSpace: "nowrap" }}>{numberOf(contact)}</Box>,
        },
        { label: t("columns.email"), wide: true, cell: (contact) => <Box sx={{ wordBreak: "break-all" }}>{contact.email}</Box> },
      ]}
    >
      {editing && <ContactModal open contactId={editing.id} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={importOpen}
        title={t("confirmImport.title")}
        confirmLabel={t("confirmImport.confirm")}
        confirmColor="primary"
        busy={importer.isPending}
        onConfirm={() => void confirmImport()}
        onClose={() => setImportOpen(false)}
      >
        {t("confirmImport.message")}
      </ConfirmDialog>
      <NewTicketModal
        open={ticketOpen}
        initialContact={ticketFor}
        onClose={() => setTicketOpen(false)}
        onOpenTicket={(uuid) => navigate(`/tickets/${uuid}`)}
      />
    </ListPage>
  );
}
