import { useCallback, useEffect, useRef } from "react";
import { api } from "../../../api/client";

/** WhatsApp drops "typing…" by itself after ~25 s: it is said again while the agent keeps typing. */
const REPEAT_MS = 10_000;
/** A pause this long ends it. */
const IDLE_MS = 4_000;

/**
 * "typing…" on the contact's phone while the agent writes (POST /messages/{ticketId}/typing): said
 * when typing starts, again every 10 s of typing, and ended after 4 s without a key, on sending, or
 * when the chat closes. A courtesy: a refused call is ignored.
 */
export function useTypingSignal(ticketId: number) {
  const on = useRef(false);
  const lastSaid = useRef(0);
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const say = useCallback(
    (typing: boolean) => {
      on.current = typing;
      lastSaid.current = typing ? Date.now() : 0;
      void api(`/messages/${ticketId}/typing`, { method: "POST", body: { typing } }).catch(() => undefined);
    },
    [ticketId],
  );

  const stop = useCallback(() => {
    clearTimeout(idle.current);
    if (on.current) say(false);
  }, [say]);

  const typed = useCallback(
    (text: string) => {
      clearTimeout(idle.current);
      if (!text.trim()) return stop();
      if (!on.current || Date.now() - lastSaid.current > REPEAT_MS) say(true);
      idle.current = setTimeout(stop, IDLE_MS);
    },
    [say, stop],
  );

  // another ticket, or the chat closed: whatever was said ends
  useEffect(() => stop, [stop]);

  return { typed, stop };
}
