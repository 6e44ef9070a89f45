import { IntegrationDefaults, IntegrationForm, type IntegrationType, IntegrationTypes } from "@charla/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import { useMemo, useState } from "react";
import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { integrationCollection, type IntegrationView } from "../../api/integrations";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

/** The dialog's values as typed: numbers as the inputs hold them. */
type Values = {
  type: IntegrationType;
  name: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number | string;
  typebotDelayMessage: number | string;
  typebotKeywordFinish: string;
  typebotUnknownMessage: string;
  jsonContent: string;
  language: string;
};

const valuesOf = (i?: IntegrationView): Values => ({
  type: i?.type ?? "webhook",
  name: i?.name ?? "",
  urlN8N: i?.urlN8N ?? "",
  typebotSlug: i?.typebotSlug ?? "",
  typebotExpires: i?.typebotExpires ?? IntegrationDefaults.typebotExpires,
  typebotDelayMessage: i?.typebotDelayMessage ?? IntegrationDefaults.typebotDelayMessage,
  typebotKeywordFinish: i?.typebotKeywordFinish ?? "",
  typebotUnknownMessage: i?.typebotUnknownMessage ?? "",
  jsonContent: i?.jsonContent ?? "",
  language: i?.language ?? "",
});

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

/** The webhook's secret key: the server's, read-only, with a copy button (shown once saved). */
function SecretKeyField({ value }: { value: string }) {
  const { t } = useTranslation("integrations");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t("modal.copied"), { autoClose: 1000 });
    } catch {
      toast.error(t("modal.copyFailed"));
    }
  };
  return (
    <TextField
      label={t("modal.apikey")}
      value={value}
      fullWidth
      helperText={t("modal.apikeyHelp")}
      slotProps={{
        htmlInput: { readOnly: true, "data-testid": "integration-apikey", style: { fontFamily: "monospace" } },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={t("modal.copy")}>
                <IconButton onClick={copy} edge="end" aria-label={t("modal.copy")} data-testid="integration-apikey-copy">
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * secondary §2/§3 queue integration dialog: every QueueIntegration field per type, with the typebot
 * defaults (delay 1000 ms, expires 1 min); the project name is the name (not asked). A new webhook or
 * n8n integration stays open once saved, to show its secret key to copy.
 */
export function IntegrationModal({ integrationId, onClose }: { integrationId: number | null; onClose: () => void }) {
  const { t } = useTranslation("integrations");
  const [id, setId] = useState(integrationId);
  const existing = integrationCollection.useRecord(id);
  const save = integrationCollection.useSave();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);
  const apikey = existing.data?.apikey ?? "";

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(id === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="integration-modal"
      submitLabel={t(id === null ? "common:actions.add" : "common:actions.save")}
      schema={IntegrationForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={id !== null && existing.isLoading}
      loadError={existing.error}
      maxWidth="sm"
      onSubmit={async (values) => {
        const saved = await save.mutateAsync({ id, values: values as unknown as IntegrationForm });
        toast.success(t("toasts.saved"));
        if (id === null && saved.apikey) setId(saved.id);
        else onClose();
      }}
    >
      {(form) => <Fields form={form} apikey={apikey} />}
    </FormDialog>
  );
}

function Fields({ form, apikey }: { form: UseFormReturn<Values>; apikey: string }) {
  const { t } = useTranslation("integrations");
  const type = useWatch({ control: form.control, name: "type" });
  return (
    <>
      <Box sx={twoColumns}>
        <Controller
          name="type"
          control={form.control}
          render={({ field }) => (
            <TextField
              select
              label={t("modal.type")}
              fullWidth
              required
              value={field.value}
              inputRef={field.ref}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(event.target.value)}
              slotProps={{ select: { SelectDisplayProps: { "data-testid": "integration-type" } as object } }}
            >
              {IntegrationTypes.map((k) => (
                <MenuItem key={k} value={k} data-testid={`integration-type-${k}`}>
                  {t(`types.${k}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <FormTextField
          control={form.control}
          name="name"
          label={t("modal.name")}
          required
          fullWidth
          autoFocus
          autoComplete="off"
          testId="integration-name"
        />
      </Box>
      {type === "dialogflow" && <Alert severity="info">{t("modal.dialogflowNote")}</Alert>}
      {type !== "dialogflow" && (
        <FormTextField
          control={form.control}
          name="urlN8N"
          label={t(type === "typebot" ? "modal.typebotUrl" : type === "n8n" ? "modal.n8nUrl" : "modal.webhookUrl")}
          placeholder="https://"
          helperText={t(type === "typebot" ? "modal.typebotUrlHelp" : "modal.urlHelp")}
          required
          fullWidth
          autoComplete="off"
          testId="integration-url"
        />
      )}
      {(type === "webhook" || type === "n8n") &&
        (apikey ? <SecretKeyField value={apikey} /> : <Alert severity="info">{t("modal.apikeyAfterSave")}</Alert>)}
      {type === "typebot" && (
        <>
          <Box sx={twoColumns}>
            <FormTextField
              control={form.control}
              name="typebotSlug"
              label={t("modal.typebotSlug")}
              required
              fullWidth
              autoComplete="off"
              testId="integration-slug"
            />
            <FormTextField
              control={form.control}
              name="typebotKeywordFinish"
              label={t("modal.typebotKeywordFinish")}
              fullWidth
              autoComplete="off"
              testId="integration-finish"
            />
          </Box>
          <Box sx={twoColumns}>
            <FormTextField
              control={form.control}
              name="typebotExpires"
              label={t("modal.typebotExpires")}
              type="number"
              fullWidth
              testId="integration-expires"
            />
            <FormTextField
              control={form.control}
              name="typebotDelayMessage"
              label={t("modal.typebotDelayMessage")}
              type="number"
              fullWidth
              testId="integration-delay"
            />
          </Box>
          <FormTextField
            control={form.control}
            name="typebotUnknownMessage"
            label={t("modal.typebotUnknownMessage")}
            fullWidth
            multiline
            minRows={2}
            testId="integration-unknown"
          />
        </>
      )}
      {type === "dialogflow" && (
        <>
          <FormTextField
            control={form.control}
            name="language"
            label={t("modal.language")}
            fullWidth
            autoComplete="off"
            testId="integration-language"
          />
          <FormTextField
            control={form.control}
            name="jsonContent"
            label={t("modal.jsonContent")}
            fullWidth
            multiline
            minRows={4}
            maxRows={10}
            testId="integration-json"
          />
        </>
      )}
    </>
  );
}
