import { type AppMessageEvent, Events } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import {
  markTicketReadInLists,
  removeTicketFromLists,
  type TicketEvent,
  ticketKeys,
  upsertTicketInLists,
  useTicketViewer,
} from "../../api/tickets";
import { useAuth } from "../../auth/context";
import { useSocket, useSocketEvent } from "../../realtime/context";

/**
 * core §4 Live updates for every loaded ticket list: `update` replaces, adds or removes the ticket by
 * each list's filters, `delete` removes it, `updateUnread` clears its badge, a new message moves it to
 * the top. Mounted once for the whole session, so lists stay right while other pages are shown.
 */
export function useTicketListEvents(): void {
  const { user } = useAuth();
  const client = useQueryClient();
  const socket = useSocket();
  const viewer = useTicketViewer();
  const companyId = user?.companyId ?? null;

  useSocketEvent<TicketEvent>(companyId === null ? null : Events.ticket(companyId), (event) => {
    if (!viewer) return;
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

  useSocketEvent<AppMessageEvent>(companyId === null ? null : Events.appMessage(companyId), (event) => {
    if (!viewer) return;
    // A new message brings the ticket up with its unread count; acks and edits only refresh it.
    upsertTicketInLists(client, event.ticket, viewer, event.action === "create");
  });

  // Events missed while the connection was down are not replayed: the lists are read again instead.
  useEffect(() => {
    if (!socket) return;
    let dropped = false;
    const onDisconnect = () => {
      dropped = true;
    };
    const onConnect = () => {
      if (!dropped) return;
      dropped = false;
      void client.invalidateQueries({ queryKey: ticketKeys.lists() });
    };
    socket.on("disconnect", onDisconnect);
    socket.on("connect", onConnect);
    return () => {
      socket.off("disconnect", onDisconnect);
      socket.off("connect", onConnect);
    };
  }, [socket, client]);
}
