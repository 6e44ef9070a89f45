import type { TicketNoteForm, TicketNoteView } from "@charla/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { ticketKeys } from "./tickets";

export type { TicketNoteView };

const notesKey = (contactId: number, ticketId: number) => [...ticketKeys.notes(contactId), ticketId] as const;

/** GET /ticket-notes/list: the contact's notes on this ticket, newest first. */
export function useTicketNotes(contactId: number, ticketId: number) {
  return useQuery({
    queryKey: notesKey(contactId, ticketId),
    queryFn: ({ signal }) => api<TicketNoteView[]>("/ticket-notes/list", { query: { contactId, ticketId }, signal }),
  });
}

export function useAddNote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: TicketNoteForm) => api<TicketNoteView>("/ticket-notes", { method: "POST", body: values }),
    onSuccess: (note) => {
      client.setQueryData<TicketNoteView[]>(notesKey(note.contactId, note.ticketId), (notes) =>
        notes ? [note, ...notes.filter((n) => n.id !== note.id)] : notes,
      );
      void client.invalidateQueries({ queryKey: ticketKeys.notes(note.contactId) });
    },
  });
}

export function useDeleteNote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: TicketNoteView) => api<void>(`/ticket-notes/${note.id}`, { method: "DELETE" }),
    onSuccess: (_, note) => {
      client.setQueriesData<TicketNoteView[]>({ queryKey: ticketKeys.notes(note.contactId) }, (notes) =>
        notes?.filter((n) => n.id !== note.id),
      );
    },
  });
}
