import type { QueueOptionView } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { useDeleteQueueOption, useQueueOptions, useSaveQueueOption } from "../../api/queues";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../lib/toast";

type Draft = { title: string; message: string };

/** Title and message of an option being written; saving an empty title is refused by the API too. */
function OptionForm({
  initial,
  onSave,
  onCancel,
}: {
  initial: Draft;
  onSave: (d: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation("queues");
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await onSave({ title: draft.title.trim(), message: draft.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1, py: 1 }} data-testid="queue-option-form">
      <TextField
        size="small"
        label={t("options.titleField")}
        value={draft.title}
        autoFocus
        error={draft.title.trim() === ""}
        onChange={(event) => setDraft({ ...draft, title: event.target.value })}
        slotProps={{ htmlInput: { maxLength: 100, "data-testid": "queue-option-title" } }}
      />
      <TextField
        size="small"
        label={t("options.message")}
        value={draft.message}
        multiline
        minRows={2}
        onChange={(event) => setDraft({ ...draft, message: event.target.value })}
        slotProps={{ htmlInput: { "data-testid": "queue-option-message" } }}
      />
      <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end" }}>
        <Button size="small" color="inherit" onClick={onCancel} disabled={busy}>
          {t("options.cancel")}
        </Button>
        <Button
          size="small"
          variant="contained"
          disabled={busy || draft.title.trim() === ""}
          onClick={() => void save()}
          data-testid="queue-option-save"
        >
          {t("options.save")}
        </Button>
      </Box>
    </Box>
  );
}

/** One option: its label and title in view mode, the form in edit mode, its children below when opened. */
function OptionNode({ option, depth }: { option: QueueOptionView; depth: number }) {
  const { t } = useTranslation("queues");
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const save = useSaveQueueOption();
  const remove = useDeleteQueueOption();

  const update = async (draft: Draft) => {
    try {
      await save.mutateAsync({ id: option.id, values: draft });
      setEditing(false);
    } catch (error) {
      toastError(error);
    }
  };
  const addChild = async (draft: Draft) => {
    try {
      await save.mutateAsync({ id: null, values: { queueId: option.queueId, parentId: option.id, ...draft } });
      setAdding(false);
      setOpen(true);
    } catch (error) {
      toastError(error);
    }
  };
  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(option);
      toast.success(t("options.deleted"));
    } catch (error) {
      toastError(error);
    }
    setConfirming(false);
  };

  return (
    <Box sx={{ pl: depth === 0 ? 0 : 2.5, borderLeft: depth === 0 ? 0 : 2, borderColor: "divider" }} data-testid="queue-option">
      {editing ? (
        <OptionForm
          initial={{ title: option.title, message: option.message }}
          onSave={update}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.5 }}>
          <Typography
            component="span"
            sx={{ fontFamily: "monospace", fontWeight: 700, minWidth: 32 }}
            data-testid="queue-option-label"
          >
            [{option.option}]
          </Typography>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 500, wordBreak: "break-word" }} data-testid="queue-option-name">
              {option.title || t("options.untitled")}
            </Typography>
            {option.message && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {option.message}
              </Typography>
            )}
          </Box>
          {option.childrenCount > 0 && (
            <Tooltip title={t(open ? "options.hideChildren" : "options.showChildren")}>
              <IconButton size="small" onClick={() => setOpen(!open)} data-testid="queue-option-toggle">
                {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={t("options.addChild")}>
            <IconButton size="small" onClick={() => setAdding(true)} data-testid="queue-option-add-child">
              <AddIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("options.edit")}>
            <IconButton size="small" onClick={() => setEditing(true)} data-testid="queue-option-edit">
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("options.delete")}>
            <IconButton size="small" onClick={() => setConfirming(true)} data-testid="queue-option-delete">
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      )}
      {open && <OptionLevel queueId={option.queueId} parentId={option.id} depth={depth + 1} />}
      {adding && (
        <Box sx={{ pl: 2.5 }}>
          <OptionForm initial={{ title: "", message: "" }} onSave={addChild} onCancel={() => setAdding(false)} />
        </Box>
      )}
      <ConfirmDialog
        open={confirming}
        title={t("options.confirmDelete", { title: option.title })}
        confirmLabel={t("common:actions.delete")}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

function OptionLevel({ queueId, parentId, depth }: { queueId: number; parentId: number | null; depth: number }) {
  const level = useQueueOptions(queueId, parentId);
  if (level.isLoading) return <CircularProgress size={18} sx={{ m: 1 }} />;
  return (
    <>
      {(level.data ?? []).map((option) => (
        <OptionNode key={option.id} option={option} depth={depth} />
      ))}
    </>
  );
}

/**
 * core §5: the chatbot's option tree of an area, edited in place: each option toggles between view
 * and edit; deleting one renumbers the rest (the server does, and the level is read again).
 */
export function QueueOptionsEditor({ queueId }: { queueId: number | null }) {
  const { t } = useTranslation("queues");
  const [adding, setAdding] = useState(false);
  const save = useSaveQueueOption();
  if (queueId === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t("options.saveFirst")}
      </Typography>
    );
  }
  const add = async (draft: Draft) => {
    try {
      await save.mutateAsync({ id: null, values: { queueId, parentId: null, ...draft } });
      setAdding(false);
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Box data-testid="queue-options">
      <OptionLevel queueId={queueId} parentId={null} depth={0} />
      {adding ? (
        <OptionForm initial={{ title: "", message: "" }} onSave={add} onCancel={() => setAdding(false)} />
      ) : (
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setAdding(true)}
          data-testid="queue-option-add"
          sx={{ mt: 1 }}
        >
          {t("options.add")}
        </Button>
      )}
    </Box>
  );
}
