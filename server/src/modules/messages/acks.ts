import { Ack, type AckError } from "@charla/contracts";
import { and, between, eq, lt, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { messages } from "../../db/schema/index.js";
import { publishMessageUpdate } from "./broadcast.js";

type MessageRow = typeof messages.$inferSelect;

/**
 * Records a channel's ack of a sent message (docs/acks.md) and tells who may see it. Acks only move
 * up, and a higher one clears an earlier failure. A failure (-1, with its reason) only lands on a
 * message not yet delivered: a late error report cannot turn grey or blue ticks into an error mark.
 * Returns the rows changed (none when the message is not recorded yet, or already knew better).
 */
export async function applyAck(
  s: Services,
  ref: { companyId: number; whatsappId: number },
  channelId: string,
  ack: number,
  error?: AckError,
): Promise<MessageRow[]> {
  const own = and(
    eq(messages.companyId, ref.companyId),
    eq(messages.whatsappId, ref.whatsappId),
    eq(messages.channelId, channelId),
  );
  const rows =
    ack < 0
      ? await s.db
          .update(messages)
          .set({ ack: Ack.failed, ackError: error ?? "ERR_SENDING_WAPP_MSG", updatedAt: new Date() })
          .where(and(own, between(messages.ack, Ack.queued, Ack.server)))
          .returning()
      : await s.db
          .update(messages)
          .set({ ack: sql`greatest(${messages.ack}, ${ack})`, ackError: null, updatedAt: new Date() })
          .where(and(own, lt(messages.ack, ack)))
          .returning();
  if (rows.length) await publishMessageUpdate(s, ref.companyId, rows);
  return rows;
}
