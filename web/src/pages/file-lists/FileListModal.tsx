import { FileListForm } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import AttachIcon from "@mui/icons-material/AttachFile";
import RemoveIcon from "@mui/icons-material/DeleteOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useMemo, useState } from "react";
import { type Control, useFieldArray, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { fileListCollection, useUploadOptionFiles } from "../../api/file-lists";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { type FileListValues, emptyOption, filesToUpload, valuesOf } from "./file-list-form";

// the contract's limit
const MAX_OPTIONS = 20;

/** One option: its name and its file (the stored one, or the one just chosen). */
function OptionFile({ control, index, onPick }: { control: Control<FileListValues>; index: number; onPick: (f: File) => void }) {
  const { t } = useTranslation("file-lists");
  const row = useWatch({ control, name: `options.${index}` });
  const shown = row?.file?.name ?? row?.stored ?? null;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0 }}>
      <Button
        component="label"
        size="small"
        startIcon={<AttachIcon />}
        sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
        data-testid={`file-option-pick-${index}`}
      >
        {t(shown ? "modal.replaceFile" : "modal.chooseFile")}
        <input
          hidden
          type="file"
          data-testid={`file-option-input-${index}`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onPick(file);
            e.target.value = "";
          }}
        />
      </Button>
      <Typography
        variant="body2"
        noWrap
        title={shown ?? undefined}
        sx={{ color: shown ? "text.primary" : "text.secondary", minWidth: 0 }}
      >
        {shown ?? t("modal.noFile")}
      </Typography>
    </Box>
  );
}

function OptionRows({ control, setFile }: { control: Control<FileListValues>; setFile: (i: number, f: File) => void }) {
  const { t } = useTranslation("file-lists");
  const { fields, append, remove } = useFieldArray({ control, name: "options" });
  return (
    <Stack sx={{ gap: 1.5 }} data-testid="file-options">
      <Typography variant="subtitle2" component="h3" sx={{ color: "text.secondary" }}>
        {t("modal.options")}
      </Typography>
      {fields.map((field, index) => (
        <Stack key={field.id} direction={{ xs: "column", sm: "row" }} sx={{ gap: 1 }} data-testid="file-option">
          <FormTextField
            control={control}
            name={`options.${index}.name`}
            label={t("modal.optionName")}
            size="small"
            sx={{ flex: { sm: "0 0 38%" } }}
            autoComplete="off"
            testId={`file-option-name-${index}`}
          />
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, flex: 1, minWidth: 0 }}>
            <OptionFile control={control} index={index} onPick={(f) => setFile(index, f)} />
            <Box sx={{ flex: 1 }} />
            <Tooltip title={t("modal.removeOption")}>
              <IconButton
                aria-label={t("modal.removeOption")}
                onClick={() => remove(index)}
                data-testid={`file-option-remove-${index}`}
              >
                <RemoveIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        </Stack>
      ))}
      {fields.length === 0 && (
        <Typography variant="body2" sx={{ color: "text.secondary" }}>
          {t("modal.noOptions")}
        </Typography>
      )}
      <Box>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={fields.length >= MAX_OPTIONS}
          onClick={() => append(emptyOption, { focusName: `options.${fields.length}.name` })}
          data-testid="file-option-add"
        >
          {t("modal.addOption")}
        </Button>
      </Box>
    </Stack>
  );
}

/**
 * secondary §2 File lists dialog: name (3 at least, 'nombre muy corto'), message, and options each
 * with a name and a file. The files go up once the list is saved, each to its option.
 */
export function FileListModal({ listId, onClose }: { listId: number | null; onClose: () => void }) {
  const { t } = useTranslation("file-lists");
  // a new list saved whose files then failed stays saved: saving again updates it
  const [savedId, setSavedId] = useState(listId);
  const existing = fileListCollection.useRecord(listId);
  const save = fileListCollection.useSave();
  const upload = useUploadOptionFiles();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);

  return (
    <FormDialog<FileListValues>
      open
      onClose={onClose}
      title={t(listId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="file-list-modal"
      submitLabel={t(listId === null ? "common:actions.add" : "common:actions.save")}
      schema={FileListForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={listId !== null && existing.isLoading}
      onSubmit={async (values, form) => {
        // the schema's output has no files: the rows as typed hold them
        const rows = form.getValues("options");
        const options = values.options.map((o, i) => ({ id: rows[i]?.id, name: o.name }));
        const saved = await save.mutateAsync({ id: savedId, values: { name: values.name, message: values.message, options } });
        setSavedId(saved.id);
        const files = filesToUpload(rows, saved);
        if (files.length) await upload.mutateAsync({ listId: saved.id, files });
        toast.success(t("toasts.saved"));
        onClose();
      }}
      maxWidth="sm"
    >
      {(form) => (
        <Stack sx={{ gap: 2, pt: 1 }}>
          <FormTextField
            control={form.control}
            name="name"
            label={t("modal.name")}
            required
            autoFocus
            fullWidth
            testId="file-list-name"
          />
          <FormTextField
            control={form.control}
            name="message"
            label={t("modal.message")}
            required
            fullWidth
            multiline
            minRows={3}
            testId="file-list-message"
          />
          <OptionRows
            control={form.control}
            setFile={(i, file) => form.setValue(`options.${i}.file`, file, { shouldDirty: true })}
          />
        </Stack>
      )}
    </FormDialog>
  );
}
