import { QuickMessageForm, type QuickMessageView } from "@charla/contracts";
import AttachIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { quickMessageCollection, useDeleteQuickMessageMedia, useUploadQuickMessageMedia } from "../../api/quick-messages";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

type Values = { shortcode: string; message: string; geral: boolean; status: boolean };
const SWITCHES = ["geral", "status"] as const;

const valuesOf = (reply?: QuickMessageView): Values => ({
  shortcode: reply?.shortcode ?? "",
  message: reply?.message ?? "",
  geral: reply?.geral ?? true,
  status: reply?.status ?? true,
});

/**
 * secondary §2 Quick replies dialog. The file is uploaded (or removed) once the reply is saved, so a
 * new reply gets it too.
 */
export function QuickMessageModal({ quickMessageId, onClose }: { quickMessageId: number | null; onClose: () => void }) {
  const { t } = useTranslation("quick-messages");
  // a new reply saved whose file then failed stays saved: saving again updates it
  const [savedId, setSavedId] = useState(quickMessageId);
  const existing = quickMessageCollection.useRecord(quickMessageId);
  const save = quickMessageCollection.useSave();
  const upload = useUploadQuickMessageMedia();
  const removeMedia = useDeleteQuickMessageMedia();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);
  const storedName = dropMedia ? null : (existing.data?.mediaName ?? null);
  const mediaName = file?.name ?? storedName;

  const submit = async (values: Values) => {
    const reply = await save.mutateAsync({ id: savedId, values });
    setSavedId(reply.id);
    if (file) await upload.mutateAsync({ id: reply.id, file });
    else if (dropMedia && reply.isMedia) await removeMedia.mutateAsync(reply.id);
    toast.success(t("toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(quickMessageId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="quick-message-modal"
      submitLabel={t(quickMessageId === null ? "common:actions.add" : "common:actions.save")}
      schema={QuickMessageForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={quickMessageId !== null && existing.isLoading}
      loadError={existing.error}
      onSubmit={submit}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="shortcode"
            label={t("modal.shortcode")}
            helperText={t("modal.shortcodeHelp")}
            required
            autoFocus
            testId="quick-message-shortcode"
          />
          <FormTextField
            control={form.control}
            name="message"
            label={t("modal.message")}
            multiline
            minRows={4}
            fullWidth
            testId="quick-message-message"
          />
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2 }}>
            {SWITCHES.map((name) => (
              <Controller
                key={name}
                name={name}
                control={form.control}
                render={({ field }) => (
                  <FormControlLabel
                    label={t(`modal.${name}`)}
                    control={
                      <Switch
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                        onBlur={field.onBlur}
                        slotProps={{ input: { "data-testid": `quick-message-${name}` } as object }}
                      />
                    }
                  />
                )}
              />
            ))}
          </Box>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
            <input
              ref={fileRef}
              type="file"
              hidden
              data-testid="quick-message-file"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                event.target.value = "";
              }}
            />
            <Button variant="outlined" startIcon={<AttachIcon />} onClick={() => fileRef.current?.click()}>
              {t(mediaName ? "modal.replaceMedia" : "modal.attachMedia")}
            </Button>
            {mediaName ? (
              <>
                <Typography variant="body2" sx={{ minWidth: 0, flex: 1 }} noWrap data-testid="quick-message-media-name">
                  {mediaName}
                </Typography>
                <Button
                  color="error"
                  startIcon={<DeleteIcon />}
                  data-testid="quick-message-media-remove"
                  onClick={() => {
                    if (file) setFile(null);
                    else setDropMedia(true);
                  }}
                >
                  {t("modal.removeMedia")}
                </Button>
              </>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t("modal.noMedia")}
              </Typography>
            )}
          </Box>
        </>
      )}
    </FormDialog>
  );
}
