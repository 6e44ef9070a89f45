import type { AnnouncementView } from "@charla/contracts";
import ImageIcon from "@mui/icons-material/ImageOutlined";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { announcementCollection } from "../../api/announcements";
import { usePermission } from "../../auth/permissions";
import { ListPage } from "../../components/list-kit/ListPage";
import { formatDateTime } from "../../lib/company-time";
import { PRIORITY_COLOR } from "../../layout/AnnouncementReader";
import { toast } from "../../lib/toast";
import { AnnouncementModal } from "./AnnouncementModal";

/** secondary §9: the redirect waits a second, so the toast is read where it was raised. */
const REDIRECT_MS = 1000;

export function PriorityChip({ priority }: { priority: AnnouncementView["priority"] }) {
  const { t } = useTranslation("announcements");
  return (
    <Chip
      size="small"
      variant="outlined"
      color={PRIORITY_COLOR[priority]}
      label={t(`priority.${priority}`)}
      data-testid="announcement-priority-chip"
    />
  );
}

function StatusChip({ active }: { active: boolean }) {
  const { t } = useTranslation("announcements");
  return (
    <Chip
      size="small"
      variant="outlined"
      color={active ? "success" : "default"}
      label={t(active ? "status.active" : "status.inactive")}
    />
  );
}

/**
 * secondary §6, §8: anyone but a super user is told ('¡Esta empresa no tiene permiso…') and sent to /
 * after a second; the API refuses them anyway (403).
 */
function Refused() {
  const { t } = useTranslation("layout");
  const navigate = useNavigate();
  useEffect(() => {
    void toast.error(t("accessDenied"), { toastId: "announcements-denied" });
    const timer = setTimeout(() => navigate("/", { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [t, navigate]);
  return null;
}

function Manage() {
  const { t } = useTranslation("announcements");
  const remove = announcementCollection.useDelete();
  announcementCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  return (
    <ListPage<AnnouncementView>
      title={t("title")}
      testId="announcements"
      useRows={announcementCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="announcement"
      rowData={(a) => ({ "data-announcement-id": a.id })}
      onEdit={(a) => setEditing({ id: a.id })}
      remove={{
        title: (a) => t("confirmDelete.title", { title: a.title }),
        message: t("confirmDelete.message"),
        run: (a) => remove.mutateAsync(a.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        {
          label: t("columns.title"),
          cell: (a) => (
            <Box sx={{ maxWidth: { xs: "calc(100vw - 160px)", sm: 360 }, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500 }} noWrap title={a.title} data-testid="announcement-title-cell">
                {a.title}
              </Typography>
              <Typography variant="body2" color="text.secondary" noWrap title={a.text}>
                {a.text}
              </Typography>
              <Box sx={{ display: { xs: "flex", sm: "none" }, gap: 0.5, mt: 0.5 }}>
                <PriorityChip priority={a.priority} />
                {!a.status && <StatusChip active={false} />}
              </Box>
            </Box>
          ),
        },
        { label: t("columns.priority"), wide: true, cell: (a) => <PriorityChip priority={a.priority} /> },
        {
          label: t("columns.status"),
          wide: true,
          cell: (a) => <StatusChip active={a.status} />,
        },
        {
          label: t("columns.media"),
          wide: true,
          cell: (a) =>
            a.mediaName ? (
              <Typography variant="caption" color="text.secondary" noWrap title={a.mediaName} sx={{ display: "flex", gap: 0.5 }}>
                <ImageIcon sx={{ fontSize: 16 }} />
                {a.mediaName}
              </Typography>
            ) : (
              "–"
            ),
        },
        { label: t("columns.createdAt"), wide: true, cell: (a) => formatDateTime(a.createdAt) },
      ]}
    >
      {editing && <AnnouncementModal announcementId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}

/** secondary §2 Announcements: list with search and the add/edit dialog, for super users only. */
export default function AnnouncementsPage() {
  return usePermission("announcements.manage") ? <Manage /> : <Refused />;
}
