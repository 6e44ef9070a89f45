import { ChatForm } from "@charla/contracts";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type ChatView, chatCollection, useChatUserOptions } from "../../api/chats";
import { FormTextField } from "../../components/form/FormTextField";
import { FormDialog } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { validationText } from "../../lib/validation";

type Values = { title: string; users: number[] };

/**
 * secondary §2, §5 Chat dialog: a title and the participants, chosen among the company's users (the
 * owner, always in the chat, is not offered). Either missing shows the spec's alert.
 */
export function ChatDialog({
  chat,
  ownId,
  onClose,
  onSaved,
}: {
  chat: ChatView | null;
  ownId: number | undefined;
  onClose: () => void;
  onSaved: (chat: ChatView) => void;
}) {
  const { t } = useTranslation("chats");
  const save = chatCollection.useSave();
  const options = useChatUserOptions(true);
  const ownerId = chat?.ownerId ?? ownId;
  const people = useMemo(() => (options.data ?? []).filter((u) => u.id !== ownerId), [options.data, ownerId]);
  const defaults = useMemo<Values>(
    () => ({ title: chat?.title ?? "", users: chat?.users.map((u) => u.userId).filter((id) => id !== ownerId) ?? [] }),
    [chat, ownerId],
  );

  const submit = async (values: Values) => {
    const saved = await save.mutateAsync({ id: chat?.id ?? null, values });
    toast.success(t("toasts.saved"));
    onSaved(saved);
    onClose();
  };

  return (
    <FormDialog<Values>
      open
      onClose={onClose}
      title={t(chat ? "dialog.titleEdit" : "dialog.titleAdd")}
      testId="chat-dialog"
      submitLabel={t(chat ? "common:actions.save" : "common:actions.add")}
      schema={ChatForm}
      defaultValues={defaults}
      onSubmit={submit}
    >
      {(form) => {
        const { errors } = form.formState;
        const alert = errors.title?.message ?? errors.users?.message ?? errors.users?.root?.message;
        return (
          <>
            {alert && (
              <Alert severity="warning" data-testid="chat-dialog-alert">
                {validationText(alert)}
              </Alert>
            )}
            <FormTextField
              control={form.control}
              name="title"
              label={t("dialog.title")}
              required
              autoFocus
              testId="chat-dialog-title"
            />
            <Controller
              name="users"
              control={form.control}
              render={({ field }) => (
                <Autocomplete
                  multiple
                  options={people}
                  loading={options.isLoading}
                  getOptionLabel={(u) => u.name}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  value={people.filter((u) => field.value.includes(u.id))}
                  onChange={(_, picked) => field.onChange(picked.map((u) => u.id))}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t("dialog.users")}
                      slotProps={{
                        ...params.slotProps,
                        htmlInput: { ...params.slotProps.htmlInput, "data-testid": "chat-dialog-users" },
                      }}
                    />
                  )}
                />
              )}
            />
          </>
        );
      }}
    </FormDialog>
  );
}
