import { useTicketListEvents } from "./use-ticket-list-events";
import { useTicketNotifications } from "./use-ticket-notifications";

/** Mounted once in the layout: ticket lists follow live events and new messages notify (core §1, §4). */
export function TicketsLive() {
  useTicketListEvents();
  useTicketNotifications();
  return null;
}
