import { HelpForm, HelpLimits } from "@charla/contracts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { type HelpView, useDeleteHelp, useHelpsTable, useSaveHelp } from "../../api/helps";
import { narrowOnly } from "../../components/ListTable";
import { FormTableTab, wholeList } from "../../components/list-kit/FormTableTab";
import { FormTextField } from "../../components/form/FormTextField";

type Values = { title: string; description: string; video: string };
const blank: Values = { title: "", description: "", video: "" };

/**
 * Settings → Ayuda (secondary §2, super users): the form above saves a new help video or the one
 * being edited; the table lists the videos this company's super users wrote (GET /helps/list).
 */
export function HelpsTab() {
  const { t } = useTranslation("helps");
  const table = useHelpsTable();
  const save = useSaveHelp();
  const remove = useDeleteHelp();

  return (
    <FormTableTab<HelpView, Values>
      testId="help"
      tableTestId="helps"
      schema={HelpForm}
      blank={blank}
      valuesOf={(help) => ({ title: help.title, description: help.description, video: help.video })}
      focusField="title"
      texts={{
        formTitle: t("admin.formTitle"),
        editTitle: t("admin.editTitle"),
        save: t("admin.save"),
        update: t("admin.update"),
        clear: t("admin.clear"),
        cancel: t("admin.cancel"),
        saved: t("admin.saved"),
        // secondary §8: the company form's words, said of help videos
        saveFailed: t("admin.saveFailed"),
        empty: t("admin.empty"),
        actions: t("admin.columns.actions"),
      }}
      list={wholeList(table)}
      save={(form, editing) => save.mutateAsync({ id: editing?.id ?? null, form })}
      remove={{
        title: (help) => t("admin.deleteTitle", { title: help.title }),
        message: t("admin.deleteMessage"),
        run: (help) => remove.mutateAsync(help.id),
        done: t("admin.deleted"),
      }}
      columns={[
        {
          label: t("admin.columns.title"),
          cell: (help) => (
            <>
              {help.title}
              <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary" }}>
                {help.video}
              </Typography>
            </>
          ),
        },
        {
          label: t("admin.columns.description"),
          wide: true,
          cell: (help) => <Box sx={{ color: "text.secondary" }}>{help.description}</Box>,
        },
        { label: t("admin.columns.video"), wide: true, cell: (help) => <Box sx={{ fontFamily: "monospace" }}>{help.video}</Box> },
      ]}
      fields={(form) => (
        <>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
            <FormTextField
              control={form.control}
              name="title"
              label={t("admin.fields.title")}
              required
              testId="help-title"
              slotProps={{ htmlInput: { maxLength: HelpLimits.title } }}
            />
            <FormTextField
              control={form.control}
              name="video"
              label={t("admin.fields.video")}
              required
              testId="help-video"
              helperText={t("admin.fields.videoHelp")}
            />
          </Box>
          <FormTextField
            control={form.control}
            name="description"
            label={t("admin.fields.description")}
            testId="help-description"
            multiline
            minRows={2}
          />
        </>
      )}
    />
  );
}
