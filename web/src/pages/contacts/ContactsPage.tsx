import { type ContactView, Limits } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import ImportIcon from "@mui/icons-material/ImportContactsOutlined";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import SearchIcon from "@mui/icons-material/Search";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "../../lib/toast";
import { useContactsList, useDeleteContact, useExportContacts, useImportContacts } from "../../api/contacts";
import { toastError } from "../../api/errors";
import { usePermission } from "../../auth/permissions";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageContainer } from "../../components/PageContainer";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { NewTicketModal } from "../tickets/NewTicketModal";
import { ContactModal } from "./ContactModal";
import { ContactsTable } from "./ContactsTable";

/**
 * core §2 Contacts: search (500 ms), infinite scroll, contact modal, confirmed import from the phone,
 * CSV export, confirmed delete, and a conversation started from a contact's row.
 */
export default function ContactsPage() {
  const { t } = useTranslation("contacts");
  const canDelete = usePermission("contacts-page:deleteContact");
  const [search, setSearch] = useState("");
  const debouncedSearch = useDebouncedValue(search.trim(), Limits.debounceMs);
  const list = useContactsList(debouncedSearch);
  const remove = useDeleteContact();
  const exporter = useExportContacts();
  const importer = useImportContacts();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  // The target outlives the dialog's closing animation so its title does not flicker empty.
  const [deleting, setDeleting] = useState<ContactView | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // Like `deleting`, the contact stays while the new-ticket modal closes.
  const [ticketFor, setTicketFor] = useState<ContactView | null>(null);
  const [ticketOpen, setTicketOpen] = useState(false);
  const theme = useTheme();
  // Under 600 px the import and export buttons keep only their icons so all three fit on one line.
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const busyIcon = <CircularProgress size={20} color="inherit" />;
  const exportIcon = exporter.isPending ? busyIcon : <DownloadIcon />;
  const importIcon = importer.isPending ? busyIcon : <ImportIcon />;
  const iconOnly = narrow && { minWidth: 0, px: 1.25 };

  // Pages are offsets: a contact added live shifts them, so a later page may repeat one already shown.
  const contacts = useMemo(() => {
    const seen = new Set<number>();
    return (list.data?.pages.flatMap((page) => page.contacts) ?? []).filter((contact) => {
      if (seen.has(contact.id)) return false;
      seen.add(contact.id);
      return true;
    });
  }, [list.data]);
  const { ref, onScroll } = useInfiniteScroll<HTMLDivElement>({
    hasMore: list.hasNextPage,
    loading: list.isFetching,
    loadMore: () => void list.fetchNextPage(),
  });

  // core §8: a list that cannot load says so with one fixed text, whatever the cause.
  useEffect(() => {
    if (!list.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [list.isError, t]);

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

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t("toasts.deleted"));
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
    setConfirmOpen(false);
  };

  return (
    <PageContainer
      title={t("title")}
      fill
      actions={
        <>
          <TextField
            size="small"
            placeholder={t("search")}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            sx={{ flex: { xs: "1 1 100%", sm: "none" }, minWidth: { sm: 280 } }}
            slotProps={{
              htmlInput: { "data-testid": "contacts-search", "aria-label": t("search") },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Tooltip title={narrow ? t("import") : ""}>
            <span>
              <Button
                variant="outlined"
                color="inherit"
                aria-label={t("import")}
                startIcon={narrow ? undefined : importIcon}
                onClick={() => setImportOpen(true)}
                disabled={importer.isPending}
                sx={{ height: 40, borderColor: "divider", ...iconOnly }}
                data-testid="contacts-import"
              >
                {narrow ? importIcon : t("import")}
              </Button>
            </span>
          </Tooltip>
          <Tooltip title={narrow ? t("export") : ""}>
            <span>
              <Button
                variant="outlined"
                color="inherit"
                aria-label={t("export")}
                startIcon={narrow ? undefined : exportIcon}
                onClick={() => void exportCsv()}
                disabled={exporter.isPending}
                sx={{ height: 40, borderColor: "divider", ...iconOnly }}
                data-testid="contacts-export"
              >
                {narrow ? exportIcon : t("export")}
              </Button>
            </span>
          </Tooltip>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEditing({ id: null })}
            sx={{ flex: { xs: 1, sm: "none" }, height: 40, whiteSpace: "nowrap" }}
            data-testid="contacts-add"
          >
            {t("add")}
          </Button>
        </>
      }
    >
      <ContactsTable
        contacts={contacts}
        canDelete={canDelete}
        loading={list.isLoading || list.isFetchingNextPage}
        searching={debouncedSearch !== ""}
        scrollRef={ref}
        onScroll={onScroll}
        onEdit={(contact) => setEditing({ id: contact.id })}
        onDelete={(contact) => {
          setDeleting(contact);
          setConfirmOpen(true);
        }}
        onStartTicket={(contact) => {
          setTicketFor(contact);
          setTicketOpen(true);
        }}
      />
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
      {canDelete && (
        <ConfirmDialog
          open={confirmOpen}
          title={t("confirmDelete.title", { name: deleting?.name ?? "" })}
          confirmLabel={t("common:actions.delete")}
          busy={remove.isPending}
          onConfirm={() => void confirmDelete()}
          onClose={() => setConfirmOpen(false)}
        >
          {t("confirmDelete.message")}
        </ConfirmDialog>
      )}
    </PageContainer>
  );
}
