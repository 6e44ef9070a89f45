import { zodResolver } from "@hookform/resolvers/zod";
import { HelpForm, HelpLimits } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { toastError } from "../../api/errors";
import { type HelpView, useDeleteHelp, useHelpsTable, useSaveHelp } from "../../api/helps";
import { ListTable, RowActions, narrowOnly, wideOnly } from "../../components/ListTable";
import { applyIssues } from "../../components/list-kit/FormDialog";
import { useConfirmDelete } from "../../components/list-kit/use-confirm-delete";
import { FormTextField } from "../../components/form/FormTextField";
import { toast } from "../../lib/toast";

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
  const [editing, setEditing] = useState<HelpView | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(HelpForm) as unknown as Resolver<Values>, defaultValues: blank });
  const scrollRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // secondary §8: a list that cannot load says so in these words, whatever the cause
    if (table.error) toastError(undefined, t("common:feedback.loadList"));
  }, [table.error, t]);

  const reset = () => {
    setEditing(null);
    form.reset(blank);
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing?.id ?? null, form: values });
      toast.success(t("admin.saved"));
      reset();
    } catch (error) {
      applyIssues(error, form, blank);
      // secondary §8: a refused form is said in the area's own words (the company one's, for helps);
      // other known codes (no permission, not found) keep their own text
      const refused = !(error instanceof ApiError) || error.code === "ERR_VALIDATION";
      toastError(refused ? undefined : error, t("admin.saveFailed"));
    }
  });

  const startEdit = (help: HelpView) => {
    setEditing(help);
    form.reset({ title: help.title, description: help.description, video: help.video });
  };

  // the edit happens in the form above the table: the cursor goes to its title once the values are in
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!editing) return;
    const frame = requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input[name="title"]')?.focus());
    return () => cancelAnimationFrame(frame);
  }, [editing]);

  const confirmDelete = useConfirmDelete<HelpView>({
    title: (help) => t("admin.deleteTitle", { title: help.title }),
    message: t("admin.deleteMessage"),
    run: async (help) => {
      await remove.mutateAsync(help.id);
      if (editing?.id === help.id) reset();
    },
    done: t("admin.deleted"),
  });

  const rows = table.data ?? [];
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Box
        component="form"
        ref={formRef}
        noValidate
        onSubmit={submit}
        data-testid="help-form"
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t(editing ? "admin.editTitle" : "admin.formTitle")}
        </Typography>
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
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", flexWrap: "wrap" }}>
          <Button color="inherit" onClick={reset} data-testid="help-clear">
            {t(editing ? "admin.cancel" : "admin.clear")}
          </Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} data-testid="help-save">
            {t(editing ? "admin.update" : "admin.save")}
          </Button>
        </Box>
      </Box>
      <Box sx={{ display: "flex", flexDirection: "column", maxHeight: 480 }}>
        <ListTable
          testId="helps"
          columns={[
            { label: t("admin.columns.title") },
            { label: t("admin.columns.description"), wide: true },
            { label: t("admin.columns.video"), wide: true },
          ]}
          actionsLabel={t("admin.columns.actions")}
          loading={table.isPending}
          empty={table.isPending || rows.length > 0 ? null : t("admin.empty")}
          scrollRef={scrollRef}
          onScroll={() => undefined}
        >
          {rows.map((help) => (
            <TableRow key={help.id} hover selected={editing?.id === help.id} data-testid="help-row">
              <TableCell sx={{ wordBreak: "break-word" }}>
                {help.title}
                <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary" }}>
                  {help.video}
                </Typography>
              </TableCell>
              <TableCell sx={{ ...wideOnly, wordBreak: "break-word", color: "text.secondary" }}>{help.description}</TableCell>
              <TableCell sx={{ ...wideOnly, fontFamily: "monospace" }}>{help.video}</TableCell>
              <RowActions prefix="help" onEdit={() => startEdit(help)} onDelete={() => confirmDelete.ask(help)} />
            </TableRow>
          ))}
        </ListTable>
      </Box>
      {confirmDelete.dialog}
    </Box>
  );
}
