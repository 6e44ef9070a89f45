import { PromptDefaults, PromptForm, PromptVoices, type PromptView } from "@charla/contracts";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useMemo, useState } from "react";
import { type Control, Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { errorText } from "../../api/errors";
import { useQueues } from "../../api/lookups";
import { promptCollection, useModelList } from "../../api/prompts";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { validationText } from "../../lib/validation";

/** The dialog's values as typed: numbers as the inputs hold them, the area "" until one is chosen. */
type Values = {
  name: string;
  prompt: string;
  queueId: number | "";
  model: string;
  apiKey: string;
  baseUrl: string;
  maxTokens: number | string;
  maxMessages: number | string;
  temperature: number | string;
  voice: string;
};

/** The endpoint OpenAI's own client calls when no URL is given (the server's default may differ). */
const DEFAULT_BASE_URL = "https://api.openai.com/v1";

const valuesOf = (p?: PromptView): Values => ({
  name: p?.name ?? "",
  prompt: p?.prompt ?? "",
  queueId: p?.queueId ?? "",
  model: p?.model ?? "",
  // the stored key is never sent back: blank keeps it
  apiKey: "",
  baseUrl: p?.baseUrl ?? "",
  maxTokens: p?.maxTokens ?? PromptDefaults.maxTokens,
  maxMessages: p?.maxMessages ?? PromptDefaults.maxMessages,
  temperature: p?.temperature ?? PromptDefaults.temperature,
  voice: p?.voice ?? PromptDefaults.voice,
});

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

/**
 * The model: a list read from the endpoint (POST /ia/models with what is typed, the stored key on an
 * edit) when the list is opened, and any name typed by hand (a model the endpoint does not list).
 */
function ModelField({ form, promptId }: { form: UseFormReturn<Values>; promptId: number | null }) {
  const { t } = useTranslation("prompts");
  const list = useModelList();
  const [asked, setAsked] = useState<string | null>(null);
  const load = () => {
    const { apiKey, baseUrl } = form.getValues();
    const probe = { apiKey: apiKey.trim(), baseUrl: baseUrl.trim(), ...(promptId ? { promptId } : {}) };
    const signature = JSON.stringify(probe);
    if (signature === asked && !list.isError) return;
    setAsked(signature);
    list.mutate(probe);
  };
  const options = list.data?.models.map((m) => m.model) ?? [];
  const note = list.isPending
    ? t("modal.modelsLoading")
    : list.isError
      ? t("modal.modelsFailed", { reason: errorText(list.error) })
      : list.isSuccess && options.length === 0
        ? t("modal.modelsNone")
        : t("modal.modelHelp");
  return (
    <Controller
      name="model"
      control={form.control}
      render={({ field, fieldState }) => (
        <Autocomplete
          freeSolo
          options={options}
          value={field.value}
          inputValue={field.value}
          onInputChange={(_, value) => field.onChange(value)}
          onChange={(_, value) => field.onChange(value ?? "")}
          onOpen={load}
          loading={list.isPending}
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={field.ref}
              onBlur={field.onBlur}
              label={t("modal.model")}
              required
              error={!!fieldState.error}
              helperText={validationText(fieldState.error?.message) ?? note}
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, "data-testid": "prompt-model" },
                input: {
                  ...params.slotProps.input,
                  endAdornment: (
                    <>
                      {list.isPending && <CircularProgress color="inherit" size={18} />}
                      {params.slotProps.input.endAdornment}
                    </>
                  ),
                },
              }}
            />
          )}
        />
      )}
    />
  );
}

/** The area the conversation goes to ("Informar al sector" when none is chosen, secondary §5). */
function QueueField({ control }: { control: Control<Values> }) {
  const { t } = useTranslation("prompts");
  const queues = useQueues();
  return (
    <Controller
      name="queueId"
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          required
          label={t("modal.queue")}
          fullWidth
          value={field.value}
          inputRef={field.ref}
          onBlur={field.onBlur}
          onChange={(event) => field.onChange(event.target.value === "" ? "" : Number(event.target.value))}
          error={!!fieldState.error}
          helperText={validationText(fieldState.error?.message) ?? t("modal.queueHelp")}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": "prompt-queue" } as object } }}
        >
          {(queues.data ?? []).map((queue) => (
            <MenuItem key={queue.id} value={queue.id} data-testid={`prompt-queue-${queue.id}`}>
              <Box
                component="span"
                sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color, mr: 1, display: "inline-block" }}
              />
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/**
 * secondary §2/§3 AI prompts dialog: every Prompt field with its default (maxTokens 500, maxMessages
 * 10, temperature 1 shown disabled, voice "texto"); the area is required on submit ('Informar al
 * sector'); the key is typed, never shown back (its masked tail beside the field).
 */
export function PromptModal({ promptId, onClose }: { promptId: number | null; onClose: () => void }) {
  const { t } = useTranslation("prompts");
  const existing = promptCollection.useRecord(promptId);
  const save = promptCollection.useSave();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);
  const stored = existing.data?.hasApiKey ? existing.data.apiKey : null;

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(promptId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="prompt-modal"
      submitLabel={t(promptId === null ? "common:actions.add" : "common:actions.save")}
      schema={PromptForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={promptId !== null && existing.isLoading}
      loadError={existing.error}
      maxWidth="md"
      onSubmit={async (values) => {
        await save.mutateAsync({ id: promptId, values: values as unknown as PromptForm });
        toast.success(t("toasts.saved"));
        onClose();
      }}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="name"
            label={t("modal.name")}
            required
            autoFocus
            fullWidth
            autoComplete="off"
            testId="prompt-name"
          />
          <FormTextField
            control={form.control}
            name="prompt"
            label={t("modal.prompt")}
            helperText={t("modal.promptHelp")}
            required
            fullWidth
            multiline
            minRows={5}
            maxRows={14}
            testId="prompt-text"
          />
          <Box sx={twoColumns}>
            <QueueField control={form.control} />
            <ModelField form={form} promptId={promptId} />
          </Box>
          <Box sx={twoColumns}>
            <FormTextField
              control={form.control}
              name="apiKey"
              password
              label={t("modal.apiKey")}
              helperText={stored ? t("modal.apiKeyStored", { masked: stored }) : t("modal.apiKeyHelp")}
              autoComplete="new-password"
              fullWidth
              testId="prompt-api-key"
            />
            <FormTextField
              control={form.control}
              name="baseUrl"
              label={t("modal.baseUrl")}
              placeholder={DEFAULT_BASE_URL}
              helperText={t("modal.baseUrlHelp")}
              autoComplete="off"
              fullWidth
              slotProps={{ inputLabel: { shrink: true } }}
              testId="prompt-base-url"
            />
          </Box>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", sm: "repeat(4, 1fr)" } }}>
            <FormTextField
              control={form.control}
              name="maxTokens"
              label={t("modal.maxTokens")}
              type="number"
              fullWidth
              testId="prompt-max-tokens"
            />
            <FormTextField
              control={form.control}
              name="maxMessages"
              label={t("modal.maxMessages")}
              type="number"
              fullWidth
              testId="prompt-max-messages"
            />
            <FormTextField
              control={form.control}
              name="temperature"
              label={t("modal.temperature")}
              type="number"
              disabled
              fullWidth
              testId="prompt-temperature"
            />
            <Controller
              name="voice"
              control={form.control}
              render={({ field }) => (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  select
                  label={t("modal.voice")}
                  fullWidth
                  slotProps={{ select: { SelectDisplayProps: { "data-testid": "prompt-voice" } as object } }}
                >
                  {PromptVoices.map((voice) => (
                    <MenuItem key={voice} value={voice}>
                      {t(`modal.voices.${voice}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Box>
        </>
      )}
    </FormDialog>
  );
}
