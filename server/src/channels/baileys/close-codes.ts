import { DisconnectReason } from "baileys";

/** QR codes shown without a scan before the session gives up (TIMEOUT), unless told otherwise. */
export const DEFAULT_MAX_QR = 6;
/** WhatsApp's answer to a retired WhatsApp Web version. */
export const VERSION_REFUSED = 405;
/** Session errors that a reconnect may cure once or twice, but not forever. */
export const BOUNDED_CODES = new Set<number>([DisconnectReason.badSession, DisconnectReason.multideviceMismatch, 419]);
export const BOUNDED_ATTEMPTS = 5;
/** The wait before the one automatic retry after another socket took the link (440). */
export const REPLACED_RETRY_MS = 60_000;
/** A replacement this long after the last one is news again: its one retry is allowed. */
export const REPLACED_FORGOTTEN_MS = 60 * 60_000;

/** The wait before reconnect attempt n (0-based): 1 s, 2 s, 4 s … capped at 30 s. */
export const defaultBackoff = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/** The HTTP-like status code Baileys attaches (a Boom) to the error that closed the connection. */
export function closeCodeOf(error: unknown): number | undefined {
  const e = error as { output?: { statusCode?: number }; statusCode?: number } | undefined;
  return e?.output?.statusCode ?? e?.statusCode;
}
