import type { FileListView } from "@charla/contracts";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fileListCollection } from "../../api/file-lists";
import { ListPage } from "../../components/list-kit/ListPage";
import { FileListModal } from "./FileListModal";

/** secondary §2 File lists: search, add, edit, confirmed delete; live. */
export default function FileListsPage() {
  const { t } = useTranslation("file-lists");
  const remove = fileListCollection.useDelete();
  fileListCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);

  return (
    <ListPage<FileListView>
      title={t("title")}
      testId="file-lists"
      useRows={fileListCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="file-list"
      onEdit={(list) => setEditing({ id: list.id })}
      remove={{
        title: (list) => t("confirmDelete.title", { name: list.name }),
        message: t("confirmDelete.message"),
        run: (list) => remove.mutateAsync(list.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        { label: t("columns.name"), cell: (list) => <Typography sx={{ fontWeight: 500 }}>{list.name}</Typography> },
        {
          label: t("columns.message"),
          cell: (list) => (
            <Typography variant="body2" noWrap sx={{ maxWidth: 360 }}>
              {list.message}
            </Typography>
          ),
        },
        {
          label: t("columns.files"),
          align: "right",
          cell: (list) => <span data-testid="file-list-count">{list.options.filter((o) => o.path).length}</span>,
        },
      ]}
    >
      {editing && <FileListModal listId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
