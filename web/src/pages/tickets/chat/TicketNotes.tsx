import { TicketNoteForm, type TicketNoteView, type TicketView } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import type { z } from "zod";
import { toastError } from "../../../api/errors";
import { useAddNote, useDeleteNote, useTicketNotes } from "../../../api/notes";
import { useSessionUser } from "../../../auth/context";
import { FormTextField } from "../../../components/form/FormTextField";
import { formatDateTime } from "../../../lib/company-time";

const STAFF = new Set(["admin", "subadmin", "supervisor"]);

function NoteItem({ note, canDelete }: { note: TicketNoteView; canDelete: boolean }) {
  const { t } = useTranslation("chat");
  const remove = useDeleteNote();
  const onDelete = async () => {
    try {
      await remove.mutateAsync(note);
      toast.success(t("notes.deleted"));
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Box data-testid="note-item" sx={{ p: 1.25, borderRadius: 1.5, bgcolor: "action.hover", position: "relative" }}>
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", pr: canDelete ? 3.5 : 0 }}>
        {note.note}
      </Typography>
      <Typography variant="caption" sx={{ color: "text.secondary", display: "block", mt: 0.5 }}>
        {[note.user?.name, formatDateTime(note.createdAt)].filter(Boolean).join(" · ")}
      </Typography>
      {canDelete && (
        <Tooltip title={t("notes.delete")}>
          <IconButton
            size="small"
            onClick={() => void onDelete()}
            disabled={remove.isPending}
            aria-label={t("notes.delete")}
            data-testid="note-delete"
            sx={{ position: "absolute", top: 4, right: 4 }}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}

/** core §5 ticket note (at least 2 characters), its list and deletion (author or staff). */
export function TicketNotes({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("chat");
  const me = useSessionUser();
  const notes = useTicketNotes(ticket.contactId, ticket.id);
  const add = useAddNote();
  const form = useForm<z.input<typeof TicketNoteForm>, unknown, z.output<typeof TicketNoteForm>>({
    resolver: zodResolver(TicketNoteForm),
    defaultValues: { note: "", ticketId: ticket.id, contactId: ticket.contactId },
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
      toast.success(t("notes.added"));
      form.reset({ note: "", ticketId: ticket.id, contactId: ticket.contactId });
    } catch (error) {
      toastError(error);
    }
  });

  const staff = me.super || STAFF.has(me.profile);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.25 }}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
        <FormTextField
          control={form.control}
          name="note"
          placeholder={t("notes.placeholder")}
          multiline
          minRows={2}
          maxRows={6}
          size="small"
          fullWidth
          testId="note-input"
        />
        <Button
          type="submit"
          variant="contained"
          size="small"
          disabled={form.formState.isSubmitting}
          data-testid="note-save"
          sx={{ alignSelf: "flex-end" }}
          startIcon={form.formState.isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t("notes.save")}
        </Button>
      </Box>
      {notes.isLoading && <CircularProgress size={20} sx={{ alignSelf: "center" }} />}
      {notes.data?.length === 0 && (
        <Typography variant="body2" sx={{ color: "text.secondary" }}>
          {t("notes.empty")}
        </Typography>
      )}
      {notes.data?.map((note) => (
        <NoteItem key={note.id} note={note} canDelete={staff || note.user?.id === me.id} />
      ))}
    </Box>
  );
}
