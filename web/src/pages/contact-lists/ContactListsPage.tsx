import type { ContactListView } from "@charla/contracts";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import ContactsIcon from "@mui/icons-material/PeopleAltOutlined";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { contactListCollection, useDownloadExample } from "../../api/contact-lists";
import { toastError } from "../../api/errors";
import { ListPage } from "../../components/list-kit/ListPage";
import { ToolbarButton } from "../../components/list-kit/ToolbarButton";
import { currentLanguage } from "../../i18n";
import { ContactListModal } from "./ContactListModal";

const contactsPath = (list: ContactListView) => `/contact-lists/${list.id}/contacts`;

/**
 * secondary §2 Contact lists: search, add, edit, confirmed delete, the example sheet in the
 * interface's language, and each list's numbers one click away.
 */
export default function ContactListsPage() {
  const { t } = useTranslation("contact-lists");
  const navigate = useNavigate();
  const remove = contactListCollection.useDelete();
  const example = useDownloadExample();
  // live while the page is open: an import elsewhere moves a count at once
  contactListCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);

  const downloadExample = () =>
    example.mutate({ language: currentLanguage(), fileName: t("example.fileName") }, { onError: (error) => toastError(error) });

  return (
    <ListPage<ContactListView>
      title={t("title")}
      testId="contact-lists"
      useRows={contactListCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actions={
        <ToolbarButton
          label={t("example.download")}
          icon={<DownloadIcon />}
          busy={example.isPending}
          onClick={downloadExample}
          testId="contact-lists-example"
        />
      }
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="contact-list"
      rowData={(list) => ({ "data-contact-list-id": list.id })}
      onRowClick={(list) => navigate(contactsPath(list))}
      rowClickable={() => true}
      onEdit={(list) => setEditing({ id: list.id })}
      remove={{
        title: (list) => t("confirmDelete.title", { name: list.name }),
        message: t("confirmDelete.message"),
        run: (list) => remove.mutateAsync(list.id),
        done: t("toasts.deleted"),
      }}
      rowExtra={(list) => (
        <Tooltip title={t("openContacts")}>
          <IconButton
            size="small"
            aria-label={t("openContacts")}
            data-testid="contact-list-contacts"
            onClick={() => navigate(contactsPath(list))}
          >
            <ContactsIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      columns={[
        { label: t("columns.name"), cell: (list) => <Typography sx={{ fontWeight: 500 }}>{list.name}</Typography> },
        {
          label: t("columns.contactsCount"),
          align: "right",
          cell: (list) => <span data-testid="contact-list-count">{list.contactsCount.toLocaleString(currentLanguage())}</span>,
        },
      ]}
    >
      {editing && <ContactListModal listId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
