import { TagForm, type TagView } from "@charla/contracts";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import { useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { tagCollection } from "../../api/tags";
import { usePermission } from "../../auth/permissions";
import { ColorField } from "../../components/form/ColorField";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";

type TagValues = { name: string; color: string; kanban: 0 | 1 };

const valuesOf = (tag?: TagView): TagValues => ({
  name: tag?.name ?? "",
  color: tag?.color ?? "#5C59A0",
  kanban: tag?.kanban === 1 ? 1 : 0,
});

/** core §2 Tags modal: name (Obligatorio, at least 3), colour, and the Kanban lane toggle for admins and supervisors. */
export function TagModal({ tagId, onClose }: { tagId: number | null; onClose: () => void }) {
  const { t } = useTranslation("tags");
  const canKanban = usePermission("tag-modal:kanban");
  const [savedId] = useState(tagId);
  const existing = tagCollection.useRecord(savedId);
  const save = tagCollection.useSave();
  const defaults = useMemo(() => valuesOf(), []);
  const loaded = useMemo(() => (existing.data ? valuesOf(existing.data) : null), [existing.data]);

  const submit = async (values: TagValues) => {
    await save.mutateAsync({ id: savedId, values });
    toast.success(t("toasts.saved"));
    onClose();
  };

  return (
    <FormDialog<TagValues>
      open
      onClose={onClose}
      title={t(savedId === null ? "modal.titleAdd" : "modal.titleEdit")}
      testId="tag-modal"
      submitLabel={t(savedId === null ? "common:actions.add" : "common:actions.save")}
      schema={TagForm}
      defaultValues={defaults}
      loaded={loaded}
      loadError={existing.error}
      loading={savedId !== null && existing.isLoading}
      onSubmit={submit}
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
            testId="tag-name"
          />
          <ColorField control={form.control} name="color" label={t("modal.color")} testId="tag-color" />
          {canKanban && (
            <Controller
              control={form.control}
              name="kanban"
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value === 1}
                      onChange={(_, on) => field.onChange(on ? 1 : 0)}
                      slotProps={{ input: { "data-testid": "tag-kanban" } as object }}
                    />
                  }
                  label={t("modal.kanban")}
                />
              )}
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
