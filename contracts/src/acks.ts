import type { ErrorCode } from "./errors.js";

/**
 * A sent message's status on WhatsApp's own scale (docs/acks.md): the numbers Baileys and the
 * WhatsApp apps use, plus -1 for a failure (its reason in `ackError`) and 0 for a message Charla
 * has recorded but not yet handed to WhatsApp. Acks only move up; a later success replaces a failure.
 */
export const Ack = {
  failed: -1,
  queued: 0,
  pending: 1,
  server: 2,
  delivered: 3,
  read: 4,
  played: 5,
} as const;
export type AckValue = (typeof Ack)[keyof typeof Ack];

/** How core §2 draws an ack: a clock, one tick (1–2), two grey ticks (3), two blue ticks (4–5), or an error mark. */
export type AckMark = "failed" | "pending" | "sent" | "delivered" | "read";

export function ackMark(ack: number): AckMark {
  if (ack < 0) return "failed";
  if (ack >= Ack.read) return "read";
  if (ack === Ack.delivered) return "delivered";
  if (ack >= Ack.pending) return "sent";
  return "pending";
}

/** Why a message failed: a catalogue code (the web shows its translated text). */
export type AckError = ErrorCode;
