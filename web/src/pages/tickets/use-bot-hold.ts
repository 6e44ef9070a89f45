import { botHoldEndsAt, type TicketView } from "@charla/contracts";
import { useEffect, useState } from "react";
import { viewerOf } from "../../api/ticket-lists";
import { useSessionUser } from "../../auth/context";

/**
 * Whether the chatbot holds the ticket for this user (issue 26): an agent reads the conversation but
 * cannot accept, answer or resolve it until the bot lets go (the server refuses with
 * ERR_TICKET_IN_CHATBOT); staff may take over. The hold also lapses when the contact stops answering
 * the bot (contracts/chatbot-hold.ts), with no event: the component renders again at that moment.
 */
export function useBotHold(ticket: Pick<TicketView, "chatbot" | "updatedAt">): boolean {
  const staff = viewerOf(useSessionUser()).staff;
  const ends = staff ? null : botHoldEndsAt(ticket);
  const [, rerender] = useState(0);
  useEffect(() => {
    if (ends === null) return;
    const timer = setTimeout(() => rerender((n) => n + 1), Math.max(0, ends - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [ends]);
  return ends !== null;
}
