import { ExternalApi, V } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import SendIcon from "@mui/icons-material/Send";
import UploadIcon from "@mui/icons-material/UploadFile";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import Typography from "@mui/material/Typography";
import { type ReactNode, useState } from "react";
import { type Control, Controller, type UseFormReturn, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ApiError } from "../../api/client";
import { toastError } from "../../api/errors";
import { FormTextField } from "../../components/form/FormTextField";
import { toast } from "../../lib/toast";
import { validationText } from "../../lib/validation";

/** secondary §5: token and number required; the number has no mask (country code, area code, number). */
const token = z.string().trim().min(1, V.required);
const number = z
  .string()
  .trim()
  .min(1, V.required)
  .regex(/^\d{8,15}$/, V.invalidPhone);
const TextTest = z.object({ token, number, body: z.string().trim().min(1, V.required) });
const MediaTest = z.object({
  token,
  number,
  file: z
    .instanceof(File, { message: V.required })
    .nullable()
    .refine((f) => f !== null, V.required),
});
type TextTest = z.infer<typeof TextTest>;
type MediaTest = z.input<typeof MediaTest>;

/** The page's own origin: the API is served where the app is. */
export const apiOrigin = () => window.location.origin;

/**
 * One test call of the external API, as a client would make it: the bearer token, 10 s at most
 * (secondary §9), an error answered with its catalogue text.
 */
async function callApi(tokenValue: string, body: BodyInit, json: boolean): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ExternalApi.testTimeoutMs);
  try {
    const res = await fetch(`${apiOrigin()}/api/messages/send`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokenValue}`, ...(json ? { "Content-Type": "application/json" } : {}) },
      body,
      signal: controller.signal,
    });
    if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  } finally {
    clearTimeout(timer);
  }
}

function useSend() {
  const { t } = useTranslation("messagesApi");
  return async (run: () => Promise<void>, success: string): Promise<boolean> => {
    try {
      await run();
      toast.success(success);
      return true;
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") toast.error(t("timeout"));
      else toastError(err);
      return false;
    }
  };
}

/**
 * What both test forms share: the title, the token and number fields, then the form's own fields and
 * the send button. `prefix` names the test ids (api-text-…, api-media-…).
 */
function TestFormFrame<T extends { token: string; number: string }>({
  form,
  prefix,
  onSubmit,
  children,
}: {
  form: UseFormReturn<T>;
  prefix: "api-text" | "api-media";
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation("messagesApi");
  // the frame's own two fields: T has them whatever else it holds
  const control = form.control as unknown as Control<{ token: string; number: string }>;
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: "grid", gap: 2 }} data-testid={`${prefix}-form`}>
      <Typography variant="subtitle2">{t("test.title")}</Typography>
      <FormTextField control={control} name="token" label={t("test.token")} testId={`${prefix}-token`} autoComplete="off" />
      <FormTextField
        control={control}
        name="number"
        label={t("test.number")}
        helperText={t("test.numberHelp")}
        testId={`${prefix}-number`}
      />
      {children}
      <Box>
        <Button
          type="submit"
          variant="contained"
          startIcon={<SendIcon />}
          disabled={form.formState.isSubmitting}
          data-testid={`${prefix}-send`}
        >
          {t("test.send")}
        </Button>
      </Box>
    </Box>
  );
}

/** secondary §2, §5: the text message test form (token, number, body). */
export function TextTestForm() {
  const { t } = useTranslation("messagesApi");
  const send = useSend();
  const form = useForm<TextTest>({ resolver: zodResolver(TextTest), defaultValues: { token: "", number: "", body: "" } });
  const onSubmit = form.handleSubmit(async (values) => {
    const ok = await send(
      () => callApi(values.token, JSON.stringify({ number: values.number, body: values.body }), true),
      t("text.sent"),
    );
    if (ok) form.reset({ ...values, body: "" });
  });
  return (
    <TestFormFrame form={form} prefix="api-text" onSubmit={onSubmit}>
      <FormTextField control={form.control} name="body" label={t("test.body")} testId="api-text-body" multiline minRows={2} />
    </TestFormFrame>
  );
}

/** secondary §2, §5: the media message test form (token, number, file). */
export function MediaTestForm() {
  const { t } = useTranslation("messagesApi");
  const send = useSend();
  const [inputKey, setInputKey] = useState(0);
  const form = useForm<MediaTest>({ resolver: zodResolver(MediaTest), defaultValues: { token: "", number: "", file: null } });
  const onSubmit = form.handleSubmit(async (values) => {
    const data = new FormData();
    data.append("number", values.number);
    if (values.file) data.append("medias", values.file);
    const ok = await send(() => callApi(values.token, data, false), t("media.sent"));
    if (ok) {
      form.reset({ ...values, file: null });
      setInputKey((k) => k + 1);
    }
  });
  return (
    <TestFormFrame form={form} prefix="api-media" onSubmit={onSubmit}>
      <Controller
        control={form.control}
        name="file"
        render={({ field, fieldState }) => (
          <Box>
            <Button component="label" variant="outlined" startIcon={<UploadIcon />}>
              {t("test.file")}
              <input
                key={inputKey}
                type="file"
                hidden
                data-testid="api-media-file"
                onChange={(event) => field.onChange(event.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography
              variant="body2"
              component="span"
              sx={{ ml: 1.5, wordBreak: "break-all" }}
              data-testid="api-media-file-name"
            >
              {field.value?.name ?? t("test.noFile")}
            </Typography>
            {fieldState.error && <FormHelperText error>{validationText(fieldState.error.message)}</FormHelperText>}
          </Box>
        )}
      />
    </TestFormFrame>
  );
}
