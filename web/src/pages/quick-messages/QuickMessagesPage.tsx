import type { QuickMessageView } from "@charla/contracts";
import AttachIcon from "@mui/icons-material/AttachFile";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { quickMessageCollection, useQuickMessageLiveEvents } from "../../api/quick-messages";
import { useSessionUser } from "../../auth/context";
import { usePermission } from "../../auth/permissions";
import { ListPage } from "../../components/list-kit/ListPage";
import { QuickMessageModal } from "./QuickMessageModal";

/** secondary §2 Quick replies: list, search, and the add/edit dialog (shortcode, message, media, geral, status). */
export default function QuickMessagesPage() {
  const { t } = useTranslation("quick-messages");
  const remove = quickMessageCollection.useDelete();
  const me = useSessionUser();
  const managesShared = usePermission("quick-messages.manage-shared");
  // the API's rule (policies/quick-messages.ts): its author, or staff for a colleague's shared reply
  const mayChange = (reply: QuickMessageView) => reply.userId === me.id || managesShared;
  // live while the page is open; the composer's slash list reads afresh each time it opens
  useQuickMessageLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  return (
    <ListPage<QuickMessageView>
      title={t("title")}
      testId="quick-messages"
      useRows={quickMessageCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="quick-message"
      rowData={(reply) => ({ "data-quick-message-id": reply.id })}
      onEdit={(reply) => setEditing({ id: reply.id })}
      editAllowed={mayChange}
      remove={{
        allowed: mayChange,
        title: (reply) => t("confirmDelete.title", { shortcode: reply.shortcode }),
        message: t("confirmDelete.message"),
        run: (reply) => remove.mutateAsync(reply.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        { label: t("columns.shortcode"), cell: (reply) => <Typography sx={{ fontWeight: 500 }}>/{reply.shortcode}</Typography> },
        {
          label: t("columns.message"),
          cell: (reply) => (
            <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360 }} noWrap>
              {reply.isMedia && (
                <AttachIcon fontSize="inherit" sx={{ mr: 0.5, verticalAlign: "middle" }} aria-label={t("columns.media")} />
              )}
              {reply.message || reply.mediaName}
            </Typography>
          ),
        },
        { label: t("columns.geral"), wide: true, cell: (reply) => t(reply.geral ? "geral.yes" : "geral.no") },
        {
          label: t("columns.status"),
          wide: true,
          cell: (reply) => (
            <Chip
              size="small"
              label={t(reply.status ? "status.active" : "status.inactive")}
              color={reply.status ? "success" : "default"}
              variant="outlined"
            />
          ),
        },
      ]}
    >
      {editing && <QuickMessageModal quickMessageId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
