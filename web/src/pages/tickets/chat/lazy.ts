import { lazyLoaded } from "../../../lib/lazy-loaded";
import { loadTicketChat } from "./load";

/**
 * The conversation column is its own chunk: the list's first rows do not wait for it. It is fetched
 * when a ticket is opened, or earlier when the user heads for the list (preloadTicketChat).
 */
export const TicketChat = lazyLoaded(loadTicketChat);

export function preloadTicketChat(): void {
  void loadTicketChat().catch(() => undefined);
}
