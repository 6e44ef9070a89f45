import type { QueueOptionView } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import CloseIcon from "@mui/icons-material/Close";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { createContext, useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { useDeleteQueueOption, useQueueOptions } from "../../api/queues";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { AutomationPickers, useAutomationChoices } from "../../components/automation/AutomationSelect";
import { toast } from "../../lib/toast";
import { type OptionDraft, draftInvalid, editDraft, newDraft } from "./option-drafts";

type Drafts = {
  drafts: OptionDraft[];
  /** The dialog was submitted once: every empty title shows as required, touched or not. */
  showErrors: boolean;
  change: (update: (drafts: OptionDraft[]) => OptionDraft[]) => void;
};

const DraftsContext = createContext<Drafts>({ drafts: [], showErrors: false, change: () => undefined });

/** Title and message of an option being written; it is saved with the area, or discarded here. */
function DraftForm({ draft }: { draft: OptionDraft }) {
  const { t } = useTranslation("queues");
  const { showErrors, change } = useContext(DraftsContext);
  const set = (values: Partial<OptionDraft>) =>
    change((drafts) => drafts.map((d) => (d.key === draft.key ? { ...d, ...values } : d)));
  // red only once the title was left empty or the dialog was submitted, not while it is being started
  const invalid = draftInvalid(draft) && (draft.touched || showErrors);
  const choices = useAutomationChoices();
  return (
    <Box sx={{ display: "flex", gap: 1, py: 1, alignItems: "flex-start" }} data-testid="queue-option-form">
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1, flex: 1, minWidth: 0 }}>
        <TextField
          size="small"
          label={t("options.titleField")}
          required
          value={draft.title}
          autoFocus
          error={invalid}
          helperText={invalid ? t("common:validation.required") : undefined}
          onChange={(event) => set({ title: event.target.value })}
          onBlur={() => set({ touched: true })}
          slotProps={{ htmlInput: { maxLength: 100, "data-testid": "queue-option-title" } }}
        />
        <TextField
          size="small"
          label={t("options.message")}
          value={draft.message}
          multiline
          minRows={2}
          onChange={(event) => set({ message: event.target.value })}
          slotProps={{ htmlInput: { "data-testid": "queue-option-message" } }}
        />
        {(choices.integrations || choices.prompts) && (
          <Box sx={{ display: "grid", gap: 1, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
            <AutomationPickers
              size="small"
              choices={choices}
              integration={{ value: draft.qIntegrationId, onChange: (qIntegrationId) => set({ qIntegrationId }) }}
              prompt={{ value: draft.promptId, onChange: (promptId) => set({ promptId }) }}
              labels={{ integration: t("options.integration"), prompt: t("options.prompt"), none: t("modal.none") }}
              testIdPrefix="queue-option"
              help={t("options.promptHelp")}
            />
          </Box>
        )}
      </Box>
      <Tooltip title={t("options.discard")}>
        <IconButton
          size="small"
          aria-label={t("options.discard")}
          onClick={() => change((drafts) => drafts.filter((d) => d.key !== draft.key))}
          data-testid="queue-option-discard"
          sx={{ mt: 0.5 }}
        >
          <CloseIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** The new options written under `parentId` (null: the roots). */
function NewDrafts({ parentId }: { parentId: number | null }) {
  const { drafts } = useContext(DraftsContext);
  return (
    <>
      {drafts
        .filter((d) => d.optionId === null && d.parentId === parentId)
        .map((d) => (
          <DraftForm key={d.key} draft={d} />
        ))}
    </>
  );
}

/** Who answers once the contact reaches a saved option: its integration or prompt, when the user may see them. */
function OptionAutomation({ option }: { option: QueueOptionView }) {
  const { t } = useTranslation("queues");
  const choices = useAutomationChoices();
  const integration = choices.integrations?.find((i) => i.id === option.q_integration_id);
  const prompt = choices.prompts?.find((p) => p.id === option.promptId);
  if (!integration && !prompt) return null;
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.5 }} data-testid="queue-option-automation">
      {integration && <Chip size="small" variant="outlined" label={`${t("modal.integration")}: ${integration.name}`} />}
      {prompt && <Chip size="small" variant="outlined" label={`${t("modal.prompt")}: ${prompt.name}`} />}
    </Box>
  );
}

/** One saved option: its label and title, or its form while it is being edited; its children below when opened. */
function OptionNode({ option, depth }: { option: QueueOptionView; depth: number }) {
  const { t } = useTranslation("queues");
  const { drafts, change } = useContext(DraftsContext);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteQueueOption();
  const editing = drafts.find((d) => d.optionId === option.id);
  const hasNewChildren = drafts.some((d) => d.optionId === null && d.parentId === option.id);

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(option);
      // its own drafts and those of its children go with it
      change((list) => list.filter((d) => d.optionId !== option.id && d.parentId !== option.id));
      toast.success(t("options.deleted"));
    } catch (error) {
      toastError(error);
    }
    setConfirming(false);
  };

  return (
    <Box sx={{ pl: depth === 0 ? 0 : 2.5, borderLeft: depth === 0 ? 0 : 2, borderColor: "divider" }} data-testid="queue-option">
      {editing ? (
        <DraftForm draft={editing} />
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
            <OptionAutomation option={option} />
          </Box>
          {option.childrenCount > 0 && (
            <Tooltip title={t(open ? "options.hideChildren" : "options.showChildren")}>
              <IconButton size="small" onClick={() => setOpen(!open)} data-testid="queue-option-toggle">
                {open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={t("options.addChild")}>
            <IconButton
              size="small"
              onClick={() => {
                change((list) => [...list, newDraft(option.id)]);
                setOpen(true);
              }}
              data-testid="queue-option-add-child"
            >
              <AddIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t("options.edit")}>
            <IconButton
              size="small"
              onClick={() => change((list) => [...list, editDraft(option)])}
              data-testid="queue-option-edit"
            >
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
      {(open || hasNewChildren) && (
        <Box sx={{ pl: 2.5 }}>
          {option.childrenCount > 0 && <OptionLevel queueId={option.queueId} parentId={option.id} depth={depth + 1} />}
          <NewDrafts parentId={option.id} />
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

type Props = Drafts & { queueId: number | null };

/**
 * core §5: the chatbot's option tree of an area. Saved options are listed; what is added or edited
 * here is kept as drafts and saved with the area by the dialog's Save (a new area too). Deleting one
 * is at once, after its confirmation, and renumbers the rest (the server does; the level is read again).
 */
export function QueueOptionsEditor({ queueId, drafts, showErrors, change }: Props) {
  const { t } = useTranslation("queues");
  return (
    <DraftsContext.Provider value={{ drafts, showErrors, change }}>
      <Box data-testid="queue-options">
        {queueId !== null && <OptionLevel queueId={queueId} parentId={null} depth={0} />}
        <NewDrafts parentId={null} />
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => change((list) => [...list, newDraft(null)])}
          data-testid="queue-option-add"
          sx={{ mt: 1 }}
        >
          {t("options.add")}
        </Button>
      </Box>
    </DraftsContext.Provider>
  );
}
