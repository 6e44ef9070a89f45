import type { ConnectionView } from "@charla/contracts";
import { useEffect, useState } from "react";

/**
 * How long a WhatsApp Web session may stay OPENING before the page says the server cannot reach
 * WhatsApp (issue 26: without it, a server with no way out waited "Esperando el código QR…" forever).
 * The session keeps trying meanwhile (1 s, 2 s, 4 s … every 30 s); a QR or CONNECTED ends it.
 */
export const UNREACHABLE_AFTER_MS = 45_000;

type Facts = Pick<ConnectionView, "provider" | "status" | "updatedAt">;

/** True once a WhatsApp Web session (neither the simulator nor Meta's API, which have no such wait) has been OPENING (since `updatedAt`) for the bounded wait. */
export function useUnreachable(connection: Facts | null): boolean {
  const waiting = connection !== null && connection.provider === "beta" && connection.status === "OPENING";
  const since = connection ? Date.parse(connection.updatedAt) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!waiting || Number.isNaN(since)) return;
    const left = since + UNREACHABLE_AFTER_MS - Date.now();
    if (left <= 0) {
      setNow(Date.now());
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), left + 100);
    return () => clearTimeout(timer);
  }, [waiting, since]);
  return waiting && !Number.isNaN(since) && Math.max(now, Date.now()) - since >= UNREACHABLE_AFTER_MS;
}
