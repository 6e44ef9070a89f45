import { useQueryClient } from "@tanstack/react-query";
import {
  markTicketReadInLists,
  removeTicketFromLists,
  ticketKeys,
  upsertTicketInLists,
  useTicketViewer,
} from "../../api/tickets";
import { dropPrefetched } from "../../api/ticket-lists";
import { useOnConnect, useSocketEvent } from "../../realtime/context";
import { readBefore } from "../../realtime/reads";

/**
 * core §4 Live updates for every loaded ticket list: `update` replaces, adds or removes the ticket by
 * each list's filters, `delete` removes it, `updateUnread` clears its badge, a new message moves it to
 * the top. Mounted once for the whole session, so lists stay right while other pages are shown.
 */
export function useTicketListEvents(): void {
  const client = useQueryClient();
  const viewer = useTicketViewer();

  useSocketEvent("ticket", (event) => {
    if (!viewer) return;
    dropPrefetched();
    switch (event.action) {
      case "update":
      case "transfer":
        upsertTicketInLists(client, event.ticket, viewer);
        break;
      case "delete":
        removeTicketFromLists(client, event.ticketId);
        break;
      case "updateUnread":
        markTicketReadInLists(client, event.ticketId);
        break;
    }
  });

  useSocketEvent("appMessage", (event) => {
    if (!viewer) return;
    dropPrefetched();
    // A new message brings the ticket up with its unread count; acks and edits only refresh it.
    upsertTicketInLists(client, event.ticket, viewer, event.action === "create");
  });

  // Events are not replayed: a list read before a join of the socket is read again (see useOnConnect).
  useOnConnect((join) => void client.invalidateQueries({ queryKey: ticketKeys.lists(), predicate: readBefore(join) }));
}
