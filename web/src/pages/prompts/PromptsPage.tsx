import type { PromptView } from "@charla/contracts";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { promptCollection } from "../../api/prompts";
import { ListPage } from "../../components/list-kit/ListPage";
import { PromptModal } from "./PromptModal";

function QueueCell({ prompt }: { prompt: PromptView }) {
  const { t } = useTranslation("prompts");
  if (!prompt.queue)
    return (
      <Typography variant="body2" sx={{ color: "text.secondary" }}>
        {t("noQueue")}
      </Typography>
    );
  const { color, name } = prompt.queue;
  return (
    <Chip
      size="small"
      label={name}
      sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color), maxWidth: "100%" }}
    />
  );
}

/** secondary §2 AI prompts (admins, plan useOpenAi): search, add, edit, confirmed delete; live. */
export default function PromptsPage() {
  const { t } = useTranslation("prompts");
  const remove = promptCollection.useDelete();
  promptCollection.useLiveEvents();
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);

  return (
    <ListPage<PromptView>
      title={t("title")}
      testId="prompts"
      useRows={promptCollection.useList}
      searchLabel={t("search")}
      addLabel={t("add")}
      onAdd={() => setEditing({ id: null })}
      actionsLabel={t("columns.actions")}
      empty={(searching) => t(searching ? "emptySearch" : "empty")}
      rowTestId="prompt"
      rowData={(p) => ({ "data-prompt-id": p.id })}
      onEdit={(p) => setEditing({ id: p.id })}
      remove={{
        title: (p) => t("confirmDelete.title", { name: p.name }),
        message: t("confirmDelete.message"),
        run: (p) => remove.mutateAsync(p.id),
        done: t("toasts.deleted"),
      }}
      columns={[
        {
          label: t("columns.name"),
          cell: (p) => (
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500 }}>{p.name}</Typography>
              {/* on phones the model column is hidden: it goes under the name */}
              <Typography variant="body2" sx={{ color: "text.secondary", display: { sm: "none" } }}>
                {p.model}
              </Typography>
            </Box>
          ),
        },
        { label: t("columns.queue"), cell: (p) => <QueueCell prompt={p} /> },
        { label: t("columns.model"), wide: true, cell: (p) => p.model },
        { label: t("columns.maxTokens"), wide: true, align: "right", cell: (p) => p.maxTokens },
      ]}
    >
      {editing && <PromptModal promptId={editing.id} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
