import { ScheduleForm, type ScheduleView } from "@charla/contracts";
import AttachIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { scheduleCollection, useDeleteScheduleMedia, useUploadScheduleMedia } from "../../api/schedules";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { ContactPicker, type PickedContact } from "./ContactPicker";
import { RepeatFields, WhenFields } from "./ScheduleFields";

export type ScheduleValues = {
  contactId: number;
  body: string;
  sendAt: string;
  whatsappId: number | null;
  repeat: "none" | "daily" | "weekly" | "monthly";
  repeatDays: number[];
};

/** The messages' template variables (lib/template.ts on the server), filled when the message goes. */
const VARIABLES = ["firstName", "name", "greeting", "protocol", "date", "hour", "user", "email"];

const inAnHour = () => new Date(Math.ceil((Date.now() + 3_600_000) / 300_000) * 300_000).toISOString();

const valuesOf = (s?: ScheduleView, contactId?: number | null): ScheduleValues => ({
  contactId: s?.contactId ?? contactId ?? 0,
  body: s?.body ?? "",
  sendAt: s?.sendAt ?? inAnHour(),
  whatsappId: s?.whatsappId ?? null,
  repeat: s?.repeat ?? "none",
  repeatDays: s?.repeatDays ?? [],
});

type Props = {
  scheduleId: number | null;
  /** A new schedule for this contact (`?contactId=` or a contact's "Programar"). */
  contact?: PickedContact | null;
  onClose: () => void;
  onSaved?: () => void;
};

/**
 * secondary §2 Schedules dialog: contact (searched from 3 characters), message with the template
 * variables, date and time in the company's zone, repeat, and an optional file uploaded (or removed)
 * once the schedule is saved.
 */
export function ScheduleModal({ scheduleId, contact = null, onClose, onSaved }: Props) {
  const { t } = useTranslation("schedules");
  const [savedId, setSavedId] = useState(scheduleId);
  const existing = scheduleCollection.useRecord(scheduleId);
  const save = scheduleCollection.useSave();
  const upload = useUploadScheduleMedia();
  const removeMedia = useDeleteScheduleMedia();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const defaults = useMemo(() => valuesOf(undefined, contact?.id), [contact?.id]);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);
  const storedName = dropMedia ? null : (existing.data?.mediaName ?? null);
  const mediaName = file?.name ?? storedName;
  const sent = existing.data?.status === "ENVIADA";
  const initialContact: PickedContact | null = existing.data?.contact ?? contact;

  const submit = async (values: ScheduleValues) => {
    const saved = await save.mutateAsync({ id: savedId, values });
    setSavedId(saved.id);
    if (file) await upload.mutateAsync({ id: saved.id, file });
    else if (dropMedia && saved.mediaUrl) await removeMedia.mutateAsync(saved.id);
    toast.success(t("toasts.saved"));
    onClose();
    onSaved?.();
  };

  return (
    <FormDialog<ScheduleValues>
      open
      onClose={onClose}
      title={t(scheduleId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="schedule-modal"
      submitLabel={t(scheduleId === null ? "common:actions.add" : "common:actions.save")}
      schema={ScheduleForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={scheduleId !== null && existing.isLoading}
      loadError={existing.error}
      readOnly={sent}
      onSubmit={submit}
    >
      {(form) => (
        <>
          {sent && <Alert severity="info">{t("modal.sentReadOnly")}</Alert>}
          <ContactPicker control={form.control} initial={initialContact} disabled={sent} />
          <FormTextField
            control={form.control}
            name="body"
            label={t("modal.body")}
            multiline
            minRows={4}
            fullWidth
            required
            disabled={sent}
            testId="schedule-body"
          />
          <Box>
            <Typography variant="caption" color="text.secondary">
              {t("modal.variables")}
            </Typography>
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.5 }}>
              {VARIABLES.map((name) => (
                <Chip
                  key={name}
                  size="small"
                  variant="outlined"
                  label={`{{${name}}}`}
                  disabled={sent}
                  onClick={() => {
                    // the field's own ref belongs to the form: the caret is read from the element
                    const el = document.querySelector<HTMLTextAreaElement>('textarea[data-testid="schedule-body"]');
                    const body = form.getValues("body");
                    const at = el?.selectionStart ?? body.length;
                    form.setValue("body", `${body.slice(0, at)}{{${name}}}${body.slice(el?.selectionEnd ?? at)}`, {
                      shouldDirty: true,
                    });
                  }}
                />
              ))}
            </Box>
          </Box>
          <WhenFields control={form.control} disabled={sent} />
          <RepeatFields control={form.control} disabled={sent} />
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
            <input
              ref={fileRef}
              type="file"
              hidden
              data-testid="schedule-file"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                event.target.value = "";
              }}
            />
            <Button variant="outlined" startIcon={<AttachIcon />} disabled={sent} onClick={() => fileRef.current?.click()}>
              {t(mediaName ? "modal.replaceMedia" : "modal.attachMedia")}
            </Button>
            {mediaName ? (
              <>
                <Typography variant="body2" sx={{ minWidth: 0, flex: 1 }} noWrap data-testid="schedule-media-name">
                  {mediaName}
                </Typography>
                <Button
                  color="error"
                  startIcon={<DeleteIcon />}
                  disabled={sent}
                  data-testid="schedule-media-remove"
                  onClick={() => (file ? setFile(null) : setDropMedia(true))}
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
