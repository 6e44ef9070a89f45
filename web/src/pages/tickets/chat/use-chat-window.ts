import type { TicketView } from "@charla/contracts";
import { useEffect, useState } from "react";
import { useChatWindow } from "../../../api/cloud";

export type WindowState =
  | { applies: false }
  | { applies: true; open: true; closesAt: number; msLeft: number }
  | { applies: true; open: false };

const TICK_MS = 60_000;

/**
 * The ticket's Meta window as the chat shows it: open with the time left (counted down here, closed
 * at `closesAt` without waiting for the server), or closed. Unknown yet, or no window: `applies` false.
 */
export function useChatWindowState(ticket: TicketView): WindowState {
  const query = useChatWindow(ticket.id, ticket.whatsappId !== null);
  const closesAt = query.data?.closesAt ? Date.parse(query.data.closesAt) : null;
  const [, setTick] = useState(0);
  const now = Date.now();
  useEffect(() => {
    if (closesAt === null || closesAt <= Date.now()) return;
    const tick = () => setTick((n) => n + 1);
    // once a minute for the countdown, and once right when it closes
    const countdown = setInterval(tick, TICK_MS);
    const close = setTimeout(tick, closesAt - Date.now() + 50);
    return () => {
      clearInterval(countdown);
      clearTimeout(close);
    };
  }, [closesAt]);
  const data = query.data;
  if (!data?.applies) return { applies: false };
  if (data.open && closesAt !== null && closesAt > now) return { applies: true, open: true, closesAt, msLeft: closesAt - now };
  return { applies: true, open: false };
}
