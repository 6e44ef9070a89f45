import type { QueueView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { queueCollection } from "../../api/queues";
import { ticketKeys } from "../../api/tickets";
import { ListPage } from "../../components/list-kit/ListPage";
import { QueueModal } from "./QueueModal";

/** core §2 Queues (Areas): the table of areas with their colour, order and greeting; the modal creates and edits. */
export default function QueuesPage() {
  const { t } = useTranslation("queues");
  const remove = queueCollection.useDelete();
  const client = useQueryClient();
  // live while the page is open; pickers and ticket lists read afresh when they are next shown
  queueCollection.useLiveEvents((event) => {
    if (event.action !== "create") void client.invalidateQueries({ queryKey: ticketKeys.lists() });
  });
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  return (
    <ListPage<QueueView>
      title={t("title")}
      testId="queues"
      useRows={queueCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="queue"
      rowData={(queue) => ({ "data-queue-id": queue.id })}
      onEdit={(queue) => setEditing({ id: queue.id })}
      remove={{
        title: (queue) => t("confirmDelete.title", { name: queue.name }),
        message: t("confirmDelete.message"),
        run: (queue) => remove.mutateAsync(queue.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        { label: t("columns.name"), cell: (queue) => <Typography sx={{ fontWeight: 500 }}>{queue.name}</Typography> },
        {
          label: t("columns.color"),
          cell: (queue) => (
            <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
              <Box sx={{ width: 22, height: 22, borderRadius: 0.75, bgcolor: queue.color, border: 1, borderColor: "divider" }} />
              <Typography variant="body2" sx={{ display: { xs: "none", sm: "block" } }}>
                {queue.color}
              </Typography>
            </Box>
          ),
        },
        { label: t("columns.order"), wide: true, cell: (queue) => queue.orderQueue ?? "—" },
        {
          label: t("columns.greeting"),
          wide: true,
          cell: (queue) => (
            <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360 }} noWrap>
              {queue.greetingMessage}
            </Typography>
          ),
        },
      ]}
    >
      {editing && <QueueModal queueId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
