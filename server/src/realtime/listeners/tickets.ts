import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send } from "../send.js";

/** Ticket events to the users the ticket policy lets see them (policies/tickets.ts ticketAudience). */
export function ticketPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("ticket.changed", { id: "realtime.ticket-changed", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "ticket", e.companyId, { action: "update", ticket: e.ticket });
    if (e.lost.length) send(rt.toUsers(e.companyId, e.lost), "ticket", e.companyId, { action: "delete", ticketId: e.ticket.id });
  });
}
