import type { TagView } from "@charla/contracts";
import Chip from "@mui/material/Chip";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { tagCollection, tagKeys } from "../../api/tags";
import { ticketKeys } from "../../api/tickets";
import { ListPage } from "../../components/list-kit/ListPage";
import { TagModal } from "./TagModal";

/** core §2 Tags: search, infinite scroll, the modal, confirmed delete; each tag with how many tickets carry it. */
export default function TagsPage() {
  const { t } = useTranslation("tags");
  const remove = tagCollection.useDelete();
  const client = useQueryClient();
  // live on the spec's channel while the page is open; the chat's picker and ticket lists follow
  tagCollection.useLiveEvents((event) => {
    void client.invalidateQueries({ queryKey: tagKeys.picker() });
    if (event.action !== "create") void client.invalidateQueries({ queryKey: ticketKeys.lists() });
  });
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  return (
    <ListPage<TagView>
      title={t("title")}
      testId="tags"
      useRows={tagCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="tag"
      rowData={(tag) => ({ "data-tag-id": tag.id })}
      onEdit={(tag) => setEditing({ id: tag.id })}
      remove={{
        title: (tag) => t("confirmDelete.title", { name: tag.name }),
        message: t("confirmDelete.message"),
        run: (tag) => remove.mutateAsync(tag.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        {
          label: t("columns.name"),
          cell: (tag) => (
            <Chip label={tag.name} size="small" sx={{ bgcolor: tag.color, color: "#fff", fontWeight: 500, maxWidth: "100%" }} />
          ),
        },
        { label: t("columns.tickets"), cell: (tag) => tag.ticketsCount },
        { label: t("columns.kanban"), wide: true, cell: (tag) => (tag.kanban === 1 ? t("kanbanYes") : "—") },
      ]}
    >
      {editing && <TagModal tagId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
