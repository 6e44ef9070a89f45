import type { ContactListItemView } from "@charla/contracts";
import ImportIcon from "@mui/icons-material/UploadFileOutlined";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useParams } from "react-router";
import { contactListCollection, contactListItemCollection, useContactListItemEvents } from "../../api/contact-lists";
import { toastError } from "../../api/errors";
import { usePermission } from "../../auth/permissions";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { ToolbarButton } from "../../components/list-kit/ToolbarButton";
import { formatPhoneNumber } from "../../lib/phone";
import { ContactListItemModal } from "./ContactListItemModal";
import { ImportDialog } from "./ImportDialog";
import { useListImport } from "./use-list-import";
import { WhatsappValidity } from "./WhatsappValidity";

const LISTS_PATH = "/contact-lists";
// what the server reads (the example sheet is an .xlsx)
const SHEET_TYPES = [
  ".xlsx",
  ".xls",
  ".csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel",
  "text/csv",
].join(",");

/** secondary §2 /contact-lists/{contactListId}/contacts; another list's page is another component (its caches). */
export default function ContactListItemsPage() {
  const listId = Number(useParams().contactListId);
  if (!Number.isInteger(listId) || listId <= 0) return <Navigate to={LISTS_PATH} replace />;
  return <ListItems key={listId} listId={listId} />;
}

/**
 * One list's numbers: search, add, edit, delete (the contacts page's rule), each number's WhatsApp
 * check, the spreadsheet import, and the way back to the lists. Names, numbers and emails are
 * customer data: rendered only as React text.
 */
function ListItems({ listId }: { listId: number }) {
  const { t } = useTranslation("contact-lists");
  const navigate = useNavigate();
  const items = contactListItemCollection(listId);
  const list = contactListCollection.useRecord(listId);
  const canDelete = usePermission("contact-lists.delete-item");
  const remove = items.useDelete();
  const importing = useListImport(listId);
  const fileRef = useRef<HTMLInputElement>(null);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  // the list's own channel, and the lists' one for its name (renamed, or deleted elsewhere)
  useContactListItemEvents(listId, importing.progressed);
  contactListCollection.useLiveEvents((event) => {
    if (event.action === "delete" && event.id === listId) navigate(LISTS_PATH, { replace: true });
  });

  useEffect(() => {
    if (!list.error) return;
    toastError(list.error);
    navigate(LISTS_PATH, { replace: true });
  }, [list.error, navigate]);

  const listName = list.data?.name ?? "";
  return (
    <ListPage<ContactListItemView>
      title={listName ? t("items.title", { name: listName }) : t("items.titleLoading")}
      testId="contact-list-items"
      useRows={items.useList}
      searchLabel={t("items.search")}
      addLabel={t("items.add")}
      onAdd={() => setEditing({ id: null })}
      back={{ label: t("items.back"), onClick: () => navigate(LISTS_PATH), testId: "contact-list-items-back" }}
      actions={
        <ToolbarButton
          label={t("items.import")}
          icon={<ImportIcon />}
          busy={importing.working}
          onClick={() => fileRef.current?.click()}
          testId="contact-list-items-import"
        />
      }
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "items.emptySearch" : "items.empty")}
      rowTestId="contact-list-item"
      rowData={(item) => ({ "data-item-id": item.id })}
      onEdit={(item) => setEditing({ id: item.id })}
      remove={
        canDelete
          ? {
              title: (item) => t("items.confirmDelete.title", { name: item.name }),
              message: t("items.confirmDelete.message"),
              run: (item) => remove.mutateAsync(item.id),
              done: t("items.toasts.deleted"),
            }
          : undefined
      }
      // under 600 px the number moves under the name and the email column goes
      columns={[
        {
          label: t("items.columns.name"),
          cell: (item) => (
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {item.name}
              </Typography>
              <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary", whiteSpace: "nowrap" }}>
                {formatPhoneNumber(item.number)}
              </Typography>
            </Box>
          ),
        },
        {
          label: t("items.columns.number"),
          wide: true,
          cell: (item) => <Box sx={{ whiteSpace: "nowrap" }}>{formatPhoneNumber(item.number)}</Box>,
        },
        { label: t("items.columns.email"), wide: true, cell: (item) => <Box sx={{ wordBreak: "break-all" }}>{item.email}</Box> },
        { label: t("items.columns.whatsapp"), cell: (item) => <WhatsappValidity valid={item.isWhatsappValid} /> },
      ]}
    >
      <input
        ref={fileRef}
        type="file"
        accept={SHEET_TYPES}
        hidden
        data-testid="contact-list-items-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // cleared so the same file can be chosen again after a fix
          event.target.value = "";
          if (file) importing.choose(file);
        }}
      />
      {editing && <ContactListItemModal listId={listId} itemId={editing.id} onClose={() => setEditing(null)} />}
      <ImportDialog
        open={importing.open}
        stage={importing.stage}
        listName={listName}
        onConfirm={importing.start}
        onClose={importing.close}
      />
    </ListPage>
  );
}
