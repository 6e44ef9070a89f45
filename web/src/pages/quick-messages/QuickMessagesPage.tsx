import type { QuickMessageView } from "@charla/contracts";
import AttachIcon from "@mui/icons-material/AttachFile";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { quickMessageCollection, useQuickMessageLiveEvents } from "../../api/quick-messages";
import { useSessionUser } from "../../auth/context";
import { usePermission } from "../../auth/permissions";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { QuickMessageModal } from "./QuickMessageModal";

/** The message on one line and, for a reply that carries a file, the file's name beside a clip. */
function Summary({ reply }: { reply: QuickMessageView }) {
  const { t } = useTranslation("quick-messages");
  return (
    <Box sx={{ maxWidth: { xs: "100%", sm: 360 }, minWidth: 0 }}>
      {reply.message && (
        <Typography variant="body2" color="text.secondary" noWrap>
          {reply.message}
        </Typography>
      )}
      {reply.isMedia && (
        <Typography
          variant="caption"
          color="text.secondary"
          noWrap
          component="div"
          title={reply.mediaName ?? undefined}
          data-testid="quick-message-media"
          sx={{ display: "flex", alignItems: "center", gap: 0.5 }}
        >
          <AttachIcon sx={{ fontSize: 14, flex: "none" }} aria-label={t("columns.media")} />
          <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis" }}>
            {reply.mediaName || t("columns.media")}
          </Box>
        </Typography>
      )}
    </Box>
  );
}

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
        {
          label: t("columns.shortcode"),
          cell: (reply) => (
            // a shortcode is one word: cut with an ellipsis (whole in the tooltip), never broken mid-word;
            // under 600 px it leaves room for the row's buttons, with the message and file below it
            <Box sx={{ maxWidth: { xs: "calc(100vw - 160px)", sm: 320 } }}>
              <Typography sx={{ fontWeight: 500 }} noWrap title={`/${reply.shortcode}`} data-testid="quick-message-shortcode">
                /{reply.shortcode}
              </Typography>
              <Box sx={narrowOnly}>
                <Summary reply={reply} />
              </Box>
            </Box>
          ),
        },
        { label: t("columns.message"), wide: true, cell: (reply) => <Summary reply={reply} /> },
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
