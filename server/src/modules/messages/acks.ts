import { Ack, type AckError } from "@charla/contracts";
import { and, between, eq, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { messages } from "../../db/schema/index.js";
import { GroupCommit } from "../../lib/group-commit.js";
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
  if (ack >= 0) return raiseInLane(s, ref, channelId, ack);
  const rows = await s.db
    .update(messages)
    .set({ ack: Ack.failed, ackError: error ?? "ERR_SENDING_WAPP_MSG", updatedAt: new Date() })
    .where(and(ownedBy(ref), eq(messages.channelId, channelId), between(messages.ack, Ack.queued, Ack.server)))
    .returning();
  if (rows.length) await publishMessageUpdate(s, ref.companyId, rows);
  return rows;
}

const ownedBy = (ref: { companyId: number; whatsappId: number }) =>
  and(eq(messages.companyId, ref.companyId), eq(messages.whatsappId, ref.whatsappId));

type Pending = { channelId: string; ack: number };
/** Acks a statement takes at most. */
const ACKS_PER_STATEMENT = 500;
type Ref = { companyId: number; whatsappId: number };
const lanesOf = new WeakMap<Services, GroupCommit<Ref, Pending, MessageRow[]>>();

/**
 * Raises acks one statement at a time per connection (group commit, as inbound messages are stored):
 * an ack arriving while one is being written waits and goes with the next, so a burst (a phone's
 * delivery and read receipts, a campaign's) costs one update, one commit and one read of the events'
 * tickets, not one of each per ack. A lone ack is written at once.
 */
function raiseInLane(s: Services, ref: Ref, channelId: string, ack: number): Promise<MessageRow[]> {
  let lanes = lanesOf.get(s);
  if (!lanes) {
    lanes = new GroupCommit(ACKS_PER_STATEMENT, async (r, batch) => {
      const rows = await raiseAcks(s, r, batch);
      await publishMessageUpdate(s, r.companyId, rows);
      return batch.map((w) => rows.filter((row) => row.channelId === w.channelId));
    });
    lanesOf.set(s, lanes);
  }
  return lanes.add(`${ref.companyId}:${ref.whatsappId}`, ref, { channelId, ack });
}

/** One update for a batch: each message raised to the highest of its acks (a row is updated once a statement). */
async function raiseAcks(s: Services, ref: Ref, batch: Pending[]): Promise<MessageRow[]> {
  const highest = new Map<string, number>();
  for (const w of batch) highest.set(w.channelId, Math.max(w.ack, highest.get(w.channelId) ?? -Infinity));
  const ids = [...highest.keys()];
  const acks = ids.map((id) => highest.get(id) as number);
  const raised = sql`(select unnest(${sql.param(ids)}::text[]) as channel_id, unnest(${sql.param(acks)}::integer[]) as ack) as "raised"`;
  return s.db
    .update(messages)
    .set({ ack: sql`greatest(${messages.ack}, "raised"."ack")`, ackError: null, updatedAt: new Date() })
    .from(raised)
    .where(and(ownedBy(ref), sql`${messages.channelId} = "raised"."channel_id"`, sql`${messages.ack} < "raised"."ack"`))
    .returning();
}
