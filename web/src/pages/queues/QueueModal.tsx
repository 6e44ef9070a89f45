import { QueueForm, V } from "@charla/contracts";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { queueCollection, useSaveQueueOption } from "../../api/queues";
import { useSettings } from "../../api/settings";
import { ColorField } from "../../components/form/ColorField";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { SchedulesEditor } from "../../components/schedules/SchedulesEditor";
import { TimeZonePicker } from "../../components/schedules/TimeZonePicker";
import { AutomationFormPickers, useAutomationChoices } from "../../components/automation/AutomationSelect";
import { toast } from "../../lib/toast";
import { AreaAnswerHelp } from "./AreaAnswerHelp";
import { type OptionDraft, draftInvalid } from "./option-drafts";
import { QueueOptionsEditor } from "./QueueOptionsEditor";
import { firstFreeColor, newQueueValues, queuePayloadOf, queueValuesOf, type QueueValues } from "./queue-form";

// The order is typed as text: empty means "after the numbered areas" (null), which coercion would make 0.
const QueueDialogSchema = QueueForm.extend({
  orderQueue: z
    .string()
    .trim()
    .regex(/^\d{0,4}$/, V.invalid),
});

const VARIABLES = ["{{firstName}}", "{{name}}", "{{greeting}}", "{{protocol}}", "{{date}}", "{{hour}}"];
const MESSAGES = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage"] as const;

type Props = { queueId: number | null; onClose: () => void };

/**
 * A new area's colour is the first one no other area uses; the areas may arrive after the dialog
 * opened, so an untouched colour that turns out taken moves to a free one.
 */
function FreeColor({ form, taken, active }: { form: UseFormReturn<QueueValues>; taken: string[]; active: boolean }) {
  const { getValues, setValue } = form;
  // the colour this dialog chose itself: any other value is the user's choice and stays
  const chosen = useRef(getValues("color"));
  useEffect(() => {
    const color = getValues("color");
    if (!active || color !== chosen.current) return;
    if (!new Set(taken.map((c) => c.toLowerCase())).has(color.toLowerCase())) return;
    chosen.current = firstFreeColor(taken);
    setValue("color", chosen.current, { shouldValidate: false });
  }, [active, taken, getValues, setValue]);
  return null;
}

/** core §2 Queues modal: Datos de Area (fields, colours, the chatbot's options) and, with scheduleType = queue, its hours. */
export function QueueModal({ queueId, onClose }: Props) {
  const { t } = useTranslation("queues");
  const [savedId, setSavedId] = useState(queueId);
  const [drafts, setDrafts] = useState<OptionDraft[]>([]);
  const [showDraftErrors, setShowDraftErrors] = useState(false);
  const saveOption = useSaveQueueOption();
  const [tab, setTab] = useState<"data" | "hours">("data");
  const existing = queueCollection.useRecord(savedId);
  const all = queueCollection.useList("");
  const save = queueCollection.useSave();
  const settings = useSettings();
  const byQueue = settings.data?.find((s) => s.key === "scheduleType")?.value === "queue";
  const taken = useMemo(() => all.items.filter((q) => q.id !== savedId).map((q) => q.color), [all.items, savedId]);
  const defaults = useMemo(() => newQueueValues(taken), [taken]);
  const loaded = useMemo(() => (existing.data ? queueValuesOf(existing.data) : null), [existing.data]);
  const choices = useAutomationChoices();

  // The area first (a new one gets its id), then the options written meanwhile, in the order they were
  // added; each one saved leaves the drafts, so a failure part way keeps only what is still unsaved.
  const submit = async (values: QueueValues) => {
    setShowDraftErrors(true);
    if (drafts.some(draftInvalid)) {
      document.querySelector<HTMLElement>('[data-testid="queue-option-form"] [aria-invalid="true"]')?.focus();
      return;
    }
    const queue = await save.mutateAsync({ id: savedId, values: queuePayloadOf(values) });
    setSavedId(queue.id);
    let left = drafts;
    for (const draft of drafts) {
      const option = {
        title: draft.title.trim(),
        message: draft.message,
        q_integration_id: draft.qIntegrationId,
        promptId: draft.promptId,
      };
      await saveOption.mutateAsync(
        draft.optionId === null
          ? { id: null, values: { queueId: queue.id, parentId: draft.parentId, ...option } }
          : { id: draft.optionId, values: option },
      );
      left = left.filter((d) => d.key !== draft.key);
      setDrafts(left);
    }
    toast.success(t("toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<QueueValues>
      open
      onClose={onClose}
      title={t(savedId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="queue-modal"
      submitLabel={t(savedId === null ? "common:actions.add" : "common:actions.save")}
      schema={QueueDialogSchema}
      defaultValues={defaults}
      loaded={loaded}
      loading={savedId !== null && existing.isLoading}
      onSubmit={submit}
      maxWidth="md"
      header={
        byQueue ? (
          <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ px: 3 }}>
            <Tab value="data" label={t("modal.tabData")} data-testid="queue-tab-data" />
            <Tab value="hours" label={t("modal.tabHours")} data-testid="queue-tab-hours" />
          </Tabs>
        ) : null
      }
    >
      {(form) =>
        tab === "hours" && byQueue ? (
          <>
            <Controller
              control={form.control}
              name="zone_time"
              render={({ field }) => (
                <TimeZonePicker label={t("hours.timeZone")} value={field.value} onChange={field.onChange} testId="queue-zone" />
              )}
            />
            <Controller
              control={form.control}
              name="schedules"
              render={({ field, fieldState }) => (
                <SchedulesEditor
                  value={field.value}
                  onChange={field.onChange}
                  invalid={() => !!fieldState.error}
                  testId="queue-schedules"
                />
              )}
            />
          </>
        ) : (
          <>
            <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr" } }}>
              <FormTextField control={form.control} name="name" label={t("modal.name")} required autoFocus testId="queue-name" />
              <FormTextField
                control={form.control}
                name="orderQueue"
                label={t("modal.order")}
                helperText={t("modal.orderHelp")}
                testId="queue-order"
                slotProps={{ htmlInput: { inputMode: "numeric" } }}
              />
            </Box>
            <ColorField control={form.control} name="color" label={t("modal.color")} taken={taken} testId="queue-color" />
            <FreeColor form={form} taken={taken} active={savedId === null} />
            {MESSAGES.map((name) => (
              <FormTextField
                key={name}
                control={form.control}
                name={name}
                label={t(`modal.${name}`)}
                multiline
                minRows={2}
                fullWidth
                testId={`queue-${name}`}
              />
            ))}
            <Typography variant="caption" color="text.secondary">
              {t("modal.variables")}: {VARIABLES.join(", ")}
            </Typography>
            {(choices.integrations || choices.prompts) && (
              <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
                <AutomationFormPickers
                  control={form.control}
                  choices={choices}
                  labels={{ integration: t("modal.integration"), prompt: t("modal.prompt"), none: t("modal.none") }}
                  testIdPrefix="queue"
                  help={<AreaAnswerHelp control={form.control} areaId={savedId} choices={choices} />}
                />
              </Box>
            )}
            <Divider />
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t("options.title")}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: -2 }}>
              {t("options.help")}
            </Typography>
            <QueueOptionsEditor queueId={savedId} drafts={drafts} showErrors={showDraftErrors} change={setDrafts} />
          </>
        )
      }
    </FormDialog>
  );
}
