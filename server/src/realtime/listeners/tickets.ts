import type { EventBus } from "../../events/index.js";
import type { Realtime } from "../realtime.js";
import { send } from "../send.js";

/** Ticket and message events to the users the ticket policy lets see them (policies/tickets.ts ticketAudience). */
export function ticketPresenters(bus: EventBus, rt: Realtime): void {
  bus.on("ticket.changed", { id: "realtime.ticket-changed", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "ticket", e.companyId, { action: "update", ticket: e.ticket });
    if (e.lost.length) send(rt.toUsers(e.companyId, e.lost), "ticket", e.companyId, { action: "delete", ticketId: e.ticket.id });
  });
  bus.on("ticket.transferred", { id: "realtime.ticket-transferred", phase: "commit" }, (e) => {
    send(rt.toUser(e.companyId, e.toUserId), "ticket", e.companyId, {
      action: "transfer",
      ticket: e.ticket,
      toUserId: e.toUserId,
    });
  });
  bus.on("ticket.deleted", { id: "realtime.ticket-deleted", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "ticket", e.companyId, { action: "delete", ticketId: e.ticketId });
  });
  bus.on("ticket.read", { id: "realtime.ticket-read", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "ticket", e.companyId, { action: "updateUnread", ticketId: e.ticketId });
  });
  bus.on("message.created", { id: "realtime.message-created", phase: "commit" }, (e) => {
    const to = rt.toUsers(e.companyId, e.audience);
    // The ticket first, then the message, for received and sent messages alike: the web's lists
    // (use-ticket-list-events.ts) place a ticket `update` by its time but move the ticket of a new
    // `appMessage` to the top, so the message's event is the last word on where the ticket sits; the
    // open chat (use-chat-events.ts) puts the same ticket view in its cache from either event.
    send(to, "ticket", e.companyId, { action: "update", ticket: e.ticket });
    send(to, "appMessage", e.companyId, { action: "create", message: e.message, ticket: e.ticket });
  });
  bus.on("message.changed", { id: "realtime.message-changed", phase: "commit" }, (e) => {
    send(rt.toUsers(e.companyId, e.audience), "appMessage", e.companyId, {
      action: "update",
      message: e.message,
      ticket: e.ticket,
    });
  });
}
