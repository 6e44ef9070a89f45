import {
  AnnouncementForm,
  AnnouncementImageTypes,
  type AnnouncementPriority,
  AnnouncementPriorities,
  type AnnouncementView,
} from "@charla/contracts";
import ImageIcon from "@mui/icons-material/ImageOutlined";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { announcementCollection, useAnnouncementMedia } from "../../api/announcements";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

type Values = { title: string; text: string; priority: AnnouncementPriority; status: boolean };

const valuesOf = (a?: AnnouncementView): Values => ({
  title: a?.title ?? "",
  text: a?.text ?? "",
  // secondary §9: low and active by default
  priority: a?.priority ?? 3,
  status: a?.status ?? true,
});

const imageAllowed = (file: File) => AnnouncementImageTypes.some((ext) => file.name.toLowerCase().endsWith(ext));

/**
 * secondary §2 Announcements dialog: title, text, priority, status and an optional png/jpg/jpeg image,
 * uploaded (or removed) once the announcement is saved, so a new one gets it too.
 */
export function AnnouncementModal({ announcementId, onClose }: { announcementId: number | null; onClose: () => void }) {
  const { t } = useTranslation("announcements");
  // saved but its image failed: saving again updates the same one
  const [savedId, setSavedId] = useState(announcementId);
  const existing = announcementCollection.useRecord(announcementId);
  const save = announcementCollection.useSave();
  const media = useAnnouncementMedia();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);
  const mediaName = file?.name ?? (dropMedia ? null : (existing.data?.mediaName ?? null));

  const submit = async (values: Values) => {
    const saved = await save.mutateAsync({ id: savedId, values });
    setSavedId(saved.id);
    if (file) await media.upload.mutateAsync({ id: saved.id, file });
    else if (dropMedia && saved.mediaUrl) await media.remove.mutateAsync(saved.id);
    toast.success(t("toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(announcementId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="announcement-modal"
      submitLabel={t(announcementId === null ? "common:actions.add" : "common:actions.save")}
      schema={AnnouncementForm}
      defaultValues={defaults}
      loaded={loaded}
      loading={announcementId !== null && existing.isLoading}
      loadError={existing.error}
      onSubmit={submit}
    >
      {(form) => (
        <>
          <FormTextField
            control={form.control}
            name="title"
            label={t("modal.title")}
            required
            autoFocus
            fullWidth
            testId="announcement-title"
          />
          <FormTextField
            control={form.control}
            name="text"
            label={t("modal.text")}
            required
            multiline
            minRows={4}
            fullWidth
            testId="announcement-text"
          />
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2 }}>
            <Controller
              name="priority"
              control={form.control}
              render={({ field }) => (
                <TextField
                  select
                  size="small"
                  label={t("modal.priority")}
                  value={field.value}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  onBlur={field.onBlur}
                  sx={{ minWidth: 160 }}
                  slotProps={{ select: { SelectDisplayProps: { "data-testid": "announcement-priority" } as object } }}
                >
                  {AnnouncementPriorities.map((p) => (
                    <MenuItem key={p} value={p} data-testid={`announcement-priority-${p}`}>
                      {t(`priority.${p}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              name="status"
              control={form.control}
              render={({ field }) => (
                <FormControlLabel
                  label={t("modal.status")}
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                      slotProps={{ input: { "data-testid": "announcement-status" } as object }}
                    />
                  }
                />
              )}
            />
          </Box>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
            <input
              ref={fileRef}
              type="file"
              hidden
              accept="image/png,image/jpeg,.png,.jpg,.jpeg"
              data-testid="announcement-file"
              onChange={(event) => {
                const chosen = event.target.files?.[0] ?? null;
                event.target.value = "";
                if (chosen && !imageAllowed(chosen)) {
                  toast.error(t("modal.wrongType"));
                  return;
                }
                setFile(chosen);
              }}
            />
            <Button variant="outlined" startIcon={<ImageIcon />} onClick={() => fileRef.current?.click()}>
              {t(mediaName ? "modal.replaceImage" : "modal.attachImage")}
            </Button>
            {mediaName ? (
              <>
                <Typography variant="body2" sx={{ minWidth: 0, flex: 1 }} noWrap data-testid="announcement-media-name">
                  {mediaName}
                </Typography>
                <Button
                  color="error"
                  startIcon={<DeleteIcon />}
                  data-testid="announcement-media-remove"
                  onClick={() => (file ? setFile(null) : setDropMedia(true))}
                >
                  {t("modal.removeImage")}
                </Button>
              </>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t("modal.noImage")}
              </Typography>
            )}
          </Box>
        </>
      )}
    </FormDialog>
  );
}
