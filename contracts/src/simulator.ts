import { z } from "zod";
import { V, text } from "./common.js";
import type { ErrorCode } from "./errors.js";
import { ContactCard, SharedLocation } from "./shares.js";
import { MediaTypes } from "./tickets.js";

/** A customer's phone number as the simulator takes it: digits, with optional +, spaces, dashes, brackets. */
const SimulatorNumber = z
  .string()
  .trim()
  .regex(/^\+?[\d\s()-]{8,30}$/, V.invalid);

/** A simulated customer's message (issue #3 simulator API); `id` is the channel message id. */
export const SimulatorInboundForm = z.object({
  number: SimulatorNumber,
  name: text().trim().max(50, V.tooLong).optional(),
  body: text().max(4096, V.tooLong).optional().default(""),
  id: text().trim().min(1).max(100).optional(),
  mediaType: z.enum(MediaTypes).optional(),
  mediaBase64: text().max(12_000_000, V.tooLong).optional(),
  fileName: text().trim().max(200).optional(),
  mimetype: text().trim().max(100).optional(),
  quotedId: text().trim().max(100).optional(),
  location: SharedLocation.optional(),
  vcard: ContactCard.optional(),
});
export type SimulatorInboundForm = z.input<typeof SimulatorInboundForm>;

export type SimulatorOutboundItem = {
  id: number;
  body: string;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  /** WhatsApp's status scale (docs/acks.md). */
  ack: number;
  ackError: ErrorCode | null;
  createdAt: string;
};

/**
 * The simulated phone's conversation with Charla, both directions, as the server keeps it:
 * `customer` is what the phone sent, `agent` what Charla sent to it (with its ack).
 */
export type SimulatorThreadItem = SimulatorOutboundItem & {
  side: "customer" | "agent";
  isDeleted: boolean;
};

/** POST /simulator/{whatsappId}/read: the customer's phone reads what Charla sent to it (blue ticks). */
export const SimulatorReadForm = z.object({ number: SimulatorNumber });
export type SimulatorReadForm = z.input<typeof SimulatorReadForm>;
export type SimulatorReadResult = { read: number };
