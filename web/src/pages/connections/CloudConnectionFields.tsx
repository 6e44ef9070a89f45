import type { CloudConnectionView } from "@charla/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import { CopyField } from "./CopyField";
import type { ConnectionFormValues } from "./connection-form";

type Props = {
  control: Control<ConnectionFormValues>;
  /** The saved settings (masked secrets, the webhook URL); null until the connection is saved. */
  saved: CloudConnectionView | null;
};

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

/** The list's own error, or its first line's (a parameter too long). */
function paramsError(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  if ("message" in error && typeof error.message === "string") return error.message;
  const lines = Array.isArray(error) ? error : Object.values(error);
  const first = lines.find((line) => line && typeof line === "object" && typeof line.message === "string");
  return first?.message;
}

type SecretName = "accessToken" | "appSecret" | "verifyToken";
const secretFlags = { accessToken: "hasAccessToken", appSecret: "hasAppSecret", verifyToken: "hasVerifyToken" } as const;

/**
 * The Cloud API connection's settings (issue 31): Meta's ids, the three secrets (write-only: once
 * saved, blank keeps them and only their tail is shown), the webhook to paste in Meta's app, and the
 * approved template automatic messages go as once a customer's 24-hour window has closed.
 */
export function CloudConnectionFields({ control, saved }: Props) {
  const { t } = useTranslation("connections");

  const secret = (name: SecretName, testId: string) => {
    // the view's mask is bullets and the tail: the tail alone reads better in a sentence
    const stored = saved?.[secretFlags[name]] ? saved[name].replace(/•/g, "") : "";
    return (
      <FormTextField
        control={control}
        name={name}
        password
        label={t(`cloud.${name}`)}
        helperText={stored ? t("cloud.secretKept", { tail: stored }) : t(`cloud.${name}Help`)}
        autoComplete="new-password"
        fullWidth
        testId={testId}
      />
    );
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="connection-cloud-fields">
      <Typography variant="body2" sx={{ color: "text.secondary" }}>
        {t("cloud.intro")}
      </Typography>
      <Box sx={twoColumns}>
        <FormTextField
          control={control}
          name="phoneNumberId"
          label={t("cloud.phoneNumberId")}
          helperText={t("cloud.phoneNumberIdHelp")}
          inputMode="numeric"
          autoComplete="off"
          fullWidth
          testId="connection-cloud-phone-number-id"
        />
        <FormTextField
          control={control}
          name="businessAccountId"
          label={t("cloud.businessAccountId")}
          helperText={t("cloud.businessAccountIdHelp")}
          inputMode="numeric"
          autoComplete="off"
          fullWidth
          testId="connection-cloud-business-account-id"
        />
      </Box>
      {secret("accessToken", "connection-cloud-access-token")}
      <Box sx={twoColumns}>
        {secret("appSecret", "connection-cloud-app-secret")}
        {secret("verifyToken", "connection-cloud-verify-token")}
      </Box>

      {saved ? (
        <Box
          sx={{ display: "flex", flexDirection: "column", gap: 1.5, p: 2, borderRadius: 1, bgcolor: "action.hover" }}
          data-testid="connection-cloud-webhook"
        >
          <Typography variant="subtitle2">{t("cloud.webhookTitle")}</Typography>
          <Typography variant="body2" sx={{ color: "text.secondary" }}>
            {t("cloud.webhookHelp")}
          </Typography>
          <CopyField label={t("cloud.webhookUrl")} value={saved.webhookUrl} testId="connection-cloud-webhook-url" />
          <TextField
            label={t("cloud.verifyToken")}
            value={saved.hasVerifyToken ? saved.verifyToken : ""}
            helperText={t("cloud.verifyTokenShown")}
            fullWidth
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: {
                readOnly: true,
                "data-testid": "connection-cloud-verify-token-saved",
                style: { fontFamily: "monospace" },
              },
            }}
          />
        </Box>
      ) : (
        <Alert severity="info" data-testid="connection-cloud-webhook-later">
          {t("cloud.webhookAfterSave")}
        </Alert>
      )}

      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t("cloud.templateTitle")}
      </Typography>
      <Typography variant="body2" sx={{ color: "text.secondary", mt: -1 }}>
        {t("cloud.templateHelp")}
      </Typography>
      <Box sx={{ ...twoColumns, gridTemplateColumns: { xs: "1fr", sm: "2fr 1fr" } }}>
        <FormTextField
          control={control}
          name="templateName"
          label={t("cloud.templateName")}
          autoComplete="off"
          fullWidth
          testId="connection-cloud-template-name"
        />
        <FormTextField
          control={control}
          name="templateLanguage"
          label={t("cloud.templateLanguage")}
          placeholder="es_MX"
          autoComplete="off"
          fullWidth
          testId="connection-cloud-template-language"
        />
      </Box>
      <Controller
        name="templateParams"
        control={control}
        render={({ field, fieldState }) => (
          <TextField
            label={t("cloud.templateParams")}
            // one parameter a line, {{1}} first; blank lines are dropped when saved
            value={field.value.join("\n")}
            onChange={(event) => field.onChange(event.target.value.split("\n"))}
            onBlur={field.onBlur}
            inputRef={field.ref}
            multiline
            minRows={2}
            maxRows={8}
            fullWidth
            error={!!fieldState.error}
            helperText={validationText(paramsError(fieldState.error)) ?? t("cloud.templateParamsHelp")}
            placeholder={"{{firstName}}\n{{protocol}}"}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "connection-cloud-template-params" } }}
          />
        )}
      />
    </Box>
  );
}
