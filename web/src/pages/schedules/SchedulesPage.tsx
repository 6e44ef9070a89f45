import { ScheduleLimits, type ScheduleView } from "@charla/contracts";
import BlockIcon from "@mui/icons-material/BlockOutlined";
import UpcomingIcon from "@mui/icons-material/ScheduleOutlined";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { contactCollection } from "../../api/contacts";
import { toastError } from "../../api/errors";
import { scheduleCollection, useCancelSchedule, useScheduleLiveEvents } from "../../api/schedules";
import { narrowOnly } from "../../components/ListTable";
import { ListPage } from "../../components/list-kit/ListPage";
import { ToolbarButton } from "../../components/list-kit/ToolbarButton";
import { formatDateTime, useCompanyZone } from "../../lib/company-time";
import { toast } from "../../lib/toast";
import type { PickedContact } from "./ContactPicker";
import { ScheduleModal } from "./ScheduleModal";
import { StatusChip } from "./StatusChip";
import { UpcomingDialog } from "./UpcomingDialog";

/** secondary §9: the table shows the first 25 characters of the text. */
const cut = (body: string) => (body.length > ScheduleLimits.listCut ? `${body.slice(0, ScheduleLimits.listCut)}…` : body);

/** `?contactId=`: the contact, read once, for a new schedule's dialog. */
function useContactFromQuery(): [PickedContact | null, boolean, () => void] {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get("contactId")) || null;
  const contact = contactCollection.useRecord(id);
  const clear = () =>
    setParams(
      (p) => {
        p.delete("contactId");
        return p;
      },
      { replace: true },
    );
  const picked = contact.data ? { id: contact.data.id, name: contact.data.name, number: contact.data.number } : null;
  return [picked, id !== null, clear];
}

/**
 * secondary §2 Schedules: list, search, the add/edit dialog, `?contactId=` opening it for a contact,
 * and the company's next 24 h; live from `company-{id}-schedule`. Times read on the company's clock.
 */
export default function SchedulesPage() {
  const { t } = useTranslation("schedules");
  const remove = scheduleCollection.useDelete();
  const cancel = useCancelSchedule();
  // drawn again when the company's zone changes
  useCompanyZone();
  useScheduleLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null; contact?: PickedContact | null } | null>(null);
  const [upcoming, setUpcoming] = useState(false);
  const [fromContact, wantsContact, clearContact] = useContactFromQuery();

  // once per contact asked for: the dialog closing (and the parameter going) must not open it again
  const opened = useRef<number | null>(null);
  useEffect(() => {
    if (!fromContact || opened.current === fromContact.id) return;
    opened.current = fromContact.id;
    setEditing({ id: null, contact: fromContact });
  }, [fromContact]);

  const close = () => {
    setEditing(null);
    if (wantsContact) clearContact();
  };
  const cancelOne = async (s: ScheduleView) => {
    try {
      await cancel.mutateAsync(s.id);
      toast.success(t("toasts.cancelled"));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <ListPage<ScheduleView>
      title={t("title")}
      testId="schedules"
      useRows={scheduleCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actions={
        <ToolbarButton
          label={t("upcoming.open")}
          icon={<UpcomingIcon />}
          onClick={() => setUpcoming(true)}
          testId="schedules-upcoming"
        />
      }
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="schedule"
      rowData={(s) => ({ "data-schedule-id": s.id })}
      onEdit={(s) => setEditing({ id: s.id })}
      editAllowed={(s) => s.status !== "ENVIANDO"}
      remove={{
        allowed: (s) => s.status !== "ENVIANDO",
        title: () => t("confirmDelete.title"),
        message: t("confirmDelete.message"),
        run: (s) => remove.mutateAsync(s.id),
        done: t("toasts.deleted"),
      }}
      rowExtra={(s) =>
        s.status === "PENDENTE" ? (
          <Tooltip title={t("actions.cancel")}>
            <IconButton
              size="small"
              aria-label={t("actions.cancel")}
              data-testid="schedule-cancel"
              onClick={() => void cancelOne(s)}
            >
              <BlockIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null
      }
      columns={[
        {
          label: t("columns.contact"),
          cell: (s) => (
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }} data-testid="schedule-contact-name">
                {s.contact?.name ?? "–"}
              </Typography>
              <Box sx={narrowOnly}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {cut(s.body)}
                </Typography>
                <Typography variant="caption" component="div">
                  {formatDateTime(s.sendAt)}
                </Typography>
                <StatusChip s={s} />
              </Box>
            </Box>
          ),
        },
        {
          label: t("columns.body"),
          wide: true,
          cell: (s) => (
            <span title={s.body} data-testid="schedule-body-cut">
              {cut(s.body)}
            </span>
          ),
        },
        {
          label: t("columns.sendAt"),
          wide: true,
          cell: (s) => (
            <Box sx={{ whiteSpace: "nowrap" }}>
              <span data-testid="schedule-send-at">{formatDateTime(s.sendAt)}</span>
              {s.repeat !== "none" && (
                <Typography variant="caption" color="text.secondary" component="div">
                  {t(`repeat.${s.repeat}`)}
                </Typography>
              )}
            </Box>
          ),
        },
        { label: t("columns.status"), wide: true, cell: (s) => <StatusChip s={s} /> },
        { label: t("columns.user"), wide: true, cell: (s) => s.user?.name ?? "–" },
      ]}
    >
      {editing && <ScheduleModal scheduleId={editing.id} contact={editing.contact} onClose={close} />}
      {upcoming && <UpcomingDialog onClose={() => setUpcoming(false)} />}
    </ListPage>
  );
}
