import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageContainer } from "../../components/PageContainer";
import { formatDateTime } from "../../lib/company-time";
import { useTasks } from "./use-tasks";

export default function TodoListPage() {
  const { t } = useTranslation("todolist");
  const { tasks, addTask, editTask, deleteTask } = useTasks();
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<number | null>(null);
  // the task whose delete is being asked about (secondary §8: deletes are confirmed first)
  const [deleting, setDeleting] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const saved = editing === null ? addTask(text) : editTask(editing, text);
    if (!saved) return;
    setText("");
    setEditing(null);
  };

  const startEdit = (index: number) => {
    setEditing(index);
    setText(tasks[index].text);
    // the field is where the edit happens: the cursor goes there, at the end of the text
    const field = input.current;
    if (field) {
      field.focus();
      requestAnimationFrame(() => field.setSelectionRange(field.value.length, field.value.length));
    }
  };

  const cancelEdit = () => {
    setEditing(null);
    setText("");
  };

  const remove = (index: number) => {
    if (editing === index) cancelEdit();
    else if (editing !== null && index < editing) setEditing(editing - 1);
    deleteTask(index);
  };

  const confirmRemove = () => {
    if (deleting !== null) remove(deleting);
    setDeleting(null);
  };

  return (
    <PageContainer title={t("title")}>
      <Box component="form" onSubmit={submit} sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <TextField
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t("newTask")}
          size="small"
          sx={{ flex: "1 1 200px" }}
          inputRef={input}
          slotProps={{ htmlInput: { "data-testid": "todo-input", "aria-label": t("newTask") } }}
        />
        <Button type="submit" variant="contained" data-testid="todo-submit" sx={{ flexShrink: 0 }}>
          {t(editing === null ? "add" : "save")}
        </Button>
        {editing !== null && (
          <Button onClick={cancelEdit} color="inherit" sx={{ flexShrink: 0 }}>
            {t("common:actions.cancel")}
          </Button>
        )}
      </Box>
      <Paper variant="outlined">
        {tasks.length === 0 ? (
          <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }}>{t("empty")}</Typography>
        ) : (
          <List disablePadding>
            {tasks.map((task, index) => (
              <ListItem
                key={task.createdAt}
                divider={index < tasks.length - 1}
                data-testid="todo-item"
                secondaryAction={
                  <>
                    <IconButton aria-label={t("common:actions.edit")} onClick={() => startEdit(index)} data-testid="todo-edit">
                      <EditIcon />
                    </IconButton>
                    <IconButton
                      edge="end"
                      aria-label={t("common:actions.delete")}
                      onClick={() => setDeleting(index)}
                      data-testid="todo-delete"
                    >
                      <DeleteIcon />
                    </IconButton>
                  </>
                }
                sx={{ pr: 13, bgcolor: editing === index ? "action.selected" : undefined }}
              >
                <ListItemText
                  primary={task.text}
                  secondary={t("dates", {
                    created: formatDateTime(task.createdAt),
                    updated: formatDateTime(task.updatedAt),
                  })}
                  slotProps={{ primary: { sx: { wordBreak: "break-word" } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle")}
        confirmLabel={t("common:actions.delete")}
        onConfirm={confirmRemove}
        onClose={() => setDeleting(null)}
      >
        {deleting !== null && tasks[deleting] ? tasks[deleting].text : ""}
      </ConfirmDialog>
    </PageContainer>
  );
}
