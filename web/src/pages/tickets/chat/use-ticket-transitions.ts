import type { TicketUpdateForm, TicketView } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { ApiError } from "../../../api/client";
import { toastError } from "../../../api/errors";
import { useUpdateTicket } from "../../../api/ticket-actions";
import { ticketKeys } from "../../../api/tickets";
import { useSessionUser } from "../../../auth/context";

export type Transition = "accept" | "return" | "resolve" | "reopen";

/**
 * core §4 status changes from the chat. After a change to closed or pending the user goes back to
 * /tickets; after a change to open the ticket stays selected.
 */
export function useTicketTransitions(ticket: TicketView) {
  const me = useSessionUser();
  const update = useUpdateTicket();
  const navigate = useNavigate();
  const client = useQueryClient();

  const run = useCallback(
    async (transition: Transition) => {
      const values: Record<Transition, TicketUpdateForm> = {
        // expectedStatus: a screen that is behind (someone resolved it meanwhile) gets a 409, not a surprise
        accept: { status: "open", userId: me.id, expectedStatus: "pending" },
        return: { status: "pending", userId: null, expectedStatus: "open" },
        resolve: { status: "closed", userId: me.id, useIntegration: false, promptId: null, integrationId: null },
        reopen: { status: "open", userId: me.id, expectedStatus: "closed" },
      };
      try {
        const changed = await update.mutateAsync({ id: ticket.id, values: values[transition] });
        if (changed.status !== "open") navigate("/tickets");
      } catch (error) {
        toastError(error);
        // Someone else moved it first (ERR_TICKET_ALREADY_ACCEPTED and the like): show the ticket as it is now.
        if (error instanceof ApiError && error.status === 409) {
          void client.invalidateQueries({ queryKey: ticketKeys.detail(ticket.uuid) });
        }
      }
    },
    [me.id, update, ticket.id, ticket.uuid, navigate, client],
  );

  return { run, busy: update.isPending, pending: update.isPending ? update.variables?.values.status : undefined };
}
