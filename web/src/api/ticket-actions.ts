import type { TicketUpdateForm, TicketView, UserView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./client";
import { removeTicketFromLists, ticketKeys, upsertTicketInLists, useTicketViewer } from "./tickets";

/** The chat header's copy follows every change. */
export function putTicketInCache(client: QueryClient, ticket: TicketView): void {
  client.setQueryData(ticketKeys.detail(ticket.uuid), ticket);
}

export type UpdateTicketInput = { id: number; values: TicketUpdateForm };

/** PUT /tickets/{id}: accept, return, resolve, reopen and transfer (core §4, docs/api-inbox.md). */
/** The answer goes into the loaded lists at once (the live event that follows changes nothing more). */
export function useUpdateTicket() {
  const client = useQueryClient();
  const viewer = useTicketViewer();
  return useMutation({
    mutationFn: ({ id, values }: UpdateTicketInput) => api<TicketView>(`/tickets/${id}`, { method: "PUT", body: values }),
    onSuccess: (ticket) => {
      putTicketInCache(client, ticket);
      if (viewer) upsertTicketInLists(client, ticket, viewer);
      else void client.invalidateQueries({ queryKey: ticketKeys.lists() });
    },
  });
}

export function useDeleteTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ticket: TicketView) => api<void>(`/tickets/${ticket.id}`, { method: "DELETE" }),
    onSuccess: (_, ticket) => {
      client.removeQueries({ queryKey: ticketKeys.messages(ticket.id) });
      removeTicketFromLists(client, ticket.id);
    },
  });
}

/** The transfer modal's user picker (core §5): asked for from 3 typed characters, matched by name. */
export function useTransferUsers(search: string) {
  const needle = search.trim().toLowerCase();
  return useQuery({
    queryKey: ["users", "picker"],
    queryFn: ({ signal }) => api<UserView[]>("/users/list", { signal }),
    enabled: needle.length >= Limits.searchMin,
    select: (users) => users.filter((user) => user.name.toLowerCase().includes(needle)),
  });
}
