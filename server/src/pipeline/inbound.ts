import { randomUUID } from "node:crypto";
import { Ack, type MessageView, type TicketView, storableText } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { InboundMessage } from "../channels/driver.js";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { messages, tickets } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { presentMessages } from "../modules/messages/presenter.js";
import { settingValue } from "../modules/settings/queries.js";
import { presentTicketsWithAudience } from "../modules/tickets/presenter.js";
import { upsertContact } from "./contact.js";
import { extensionOf, summary } from "./media.js";
import { KeyedQueue } from "../lib/keyed-queue.js";
import { ratingReply, takeRatingAnswer } from "../chatbot/rating-answer.js";
import { queueAutomatic } from "../modules/messages/automatic.js";
import { reopenForCustomer, ticketForCustomer } from "../modules/tickets/openings.js";
import { within } from "../modules/tickets/transitions.js";
import { audienceOf, messageViewOf, ticketViewOf } from "./views.js";
import { type WrittenRow, writerFor } from "./writer.js";

type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export type InboundSource = { companyId: number; whatsappId: number };
export type InboundResult =
  | { stored: true; ticketId: number; messageId: number; created: boolean }
  | { stored: false; reason: "ignorable" | "group-ignored" | "duplicate" };

class Duplicate extends Error {}

/** What the broadcast says, and to whom. */
type Delivery = {
  ticketId: number;
  messageId: number;
  created: boolean;
  ticket: TicketView;
  message: MessageView;
  audience: number[];
};

const ordering = new WeakMap<Services, KeyedQueue>();
const orderOf = (s: Services) => {
  let q = ordering.get(s);
  if (!q) {
    q = new KeyedQueue();
    ordering.set(s, q);
  }
  return q;
};

/**
 * A message from a channel, in order (behaviours: inbound path): drop what is not a conversation →
 * groups per CheckMsgIsGroup → contact → ticket → store once per (connection, channel id) → ticket
 * counters → commit → `message.created` → `message.received` (the bot, campaign confirmations, the
 * profile picture listen, off this path). A replayed event changes nothing.
 *
 * One contact's messages go one at a time, in the order they came; different contacts' at once, and
 * those that meet in the writer share a statement (writer.ts). The cases the statement leaves to rules
 * it does not know (a returning contact's closed ticket) take the transactional path.
 */
export async function handleInbound(s: Services, source: InboundSource, input: InboundMessage): Promise<InboundResult> {
  const msg = storableInbound(input);
  if (msg.ignorable || !msg.number) return { stored: false, reason: "ignorable" };
  if (msg.isGroup && (await groupsIgnored(s, source.companyId))) return { stored: false, reason: "group-ignored" };
  return orderOf(s).run(`${source.companyId}:${source.whatsappId}:${msg.number}`, () => ingest(s, source, msg));
}

async function ingest(s: Services, source: InboundSource, msg: InboundMessage): Promise<InboundResult> {
  // a replayed media event is known before its file is written again
  if (msg.media && (await isStored(s, source, msg.channelId))) return { stored: false, reason: "duplicate" };
  const mediaPath = msg.media
    ? await s.storage.write(source.companyId, `media/${randomUUID()}${extensionOf(msg.media)}`, msg.media.data)
    : null;
  let delivery: Delivery | null;
  try {
    const written = await writerFor(s, source.companyId, source.whatsappId).write({ msg, mediaPath });
    if (written.outcome === "stored") delivery = await fromStatement(s, source, msg, written.row, written.created);
    else if (written.outcome === "duplicate") delivery = null;
    else delivery = await storeInTransaction(s, source, msg, mediaPath);
  } catch (err) {
    // nothing was committed: the file has no row to belong to
    if (mediaPath) await s.storage.remove(source.companyId, mediaPath);
    throw err;
  }
  if (!delivery) {
    if (mediaPath) await s.storage.remove(source.companyId, mediaPath);
    return { stored: false, reason: "duplicate" };
  }
  // what listeners do is theirs (logged, never failing the stored message, which the driver would redeliver)
  const { companyId, whatsappId } = source;
  s.events.publish({ type: "message.created", companyId, ticketId: delivery.ticketId, ...pick(delivery) });
  const { media: _bytes, ...heard } = msg;
  s.events.publish({
    type: "message.received",
    companyId,
    whatsappId,
    ticketId: delivery.ticketId,
    messageId: delivery.messageId,
    msg: heard,
    ticket: delivery.ticket,
  });
  return { stored: true, ticketId: delivery.ticketId, messageId: delivery.messageId, created: delivery.created };
}

/** The ticket and the message as the statement wrote them, and who may see them. */
async function fromStatement(
  s: Services,
  source: InboundSource,
  msg: InboundMessage,
  row: WrittenRow,
  created: boolean,
): Promise<Delivery> {
  const message = messageViewOf(row, source.companyId, source.whatsappId);
  // an agent closed the ticket between the statement's look and its write: the message is on it, and a
  // customer writing to a ticket closed moments ago reopens it, as if it had come a moment later
  if (row.t_status === "closed" && !msg.fromMe) {
    const reopened = await reopenAfterRace(s, source, row.t_id);
    if (reopened) return { ticketId: row.t_id, messageId: message.id, created, message, ...reopened };
  }
  return { ticketId: row.t_id, messageId: message.id, created, ticket: ticketViewOf(row), message, audience: audienceOf(row) };
}

async function reopenAfterRace(s: Services, source: InboundSource, ticketId: number) {
  const reopened = await withTransaction(s.db, async (tx) => {
    const q = scoped(tx, source.companyId);
    const ticket = await q.tickets.lockById(ticketId);
    if (ticket?.status !== "closed") return null;
    return reopenForCustomer(q, ticket);
  });
  return reopened ? present(s, source.companyId, reopened) : null;
}

/** A ticket's view and audience, read on the pool after its change is committed. */
async function present(s: Services, companyId: number, ticket: TicketRow) {
  const q = scoped(s.db, companyId);
  const [{ view, audience }] = await presentTicketsWithAudience(q, [ticket]);
  return { ticket: view, audience };
}

/**
 * The rules the statement leaves out, in a transaction of a few statements one after the other:
 * the contact (created or renamed in one upsert), the ticket (live, reopened within 2 h, or new), the
 * message (once per channel id), the counters. Views and audience are read after the commit.
 */
async function storeInTransaction(
  s: Services,
  source: InboundSource,
  msg: InboundMessage,
  mediaPath: string | null,
): Promise<Delivery | null> {
  let written: { ticket: TicketRow; stored: MessageRow; created: boolean };
  try {
    written = await withTransaction(s, async (tx, hooks) => {
      const q = scoped(tx, source.companyId);
      const contact = await upsertContact(q, source.whatsappId, msg);
      // a pending rating comes first (behaviours: inbound path 7): its answer stays on the closed ticket
      const rating = msg.fromMe ? null : await takeRatingAnswer(q, contact.id, source.whatsappId, msg.body);
      const rated = rating && rating.kind !== "gave-up" ? rating.ticket : null;
      const { ticket, created } = rated
        ? { ticket: rated, created: false }
        : await ticketForCustomer(q, contact, source.whatsappId, msg.fromMe, { reopen: !rating });
      const quoted = msg.quotedChannelId ? await findByChannelId(q, source.whatsappId, msg.quotedChannelId) : null;
      const [stored] = await tx
        .insert(messages)
        .values({
          companyId: source.companyId,
          ticketId: ticket.id,
          contactId: contact.id,
          whatsappId: source.whatsappId,
          channelId: msg.channelId,
          body: msg.body,
          fromMe: msg.fromMe,
          read: msg.fromMe,
          ack: msg.fromMe ? Ack.server : Ack.queued,
          mediaType: msg.mediaType,
          mediaPath,
          mediaName: msg.media?.fileName ?? null,
          quotedMsgId: quoted?.id ?? null,
          participant: msg.participant?.number ?? null,
          participantName: msg.participant?.name ?? null,
          channelKey: msg.channelKey ?? null,
          createdAt: msg.timestamp ?? new Date(),
        })
        .onConflictDoNothing()
        .returning();
      // lost the race with a replay of the same event: undo the whole transaction
      if (!stored) throw new Duplicate();
      // the rating's reply commits with the answer (sent after, by its job), and sorts right after it
      const reply = rating ? await ratingReply(q, rating) : null;
      if (reply && rated)
        await queueAutomatic(within(s, tx, source.companyId, hooks), source.companyId, rated, [reply], stored.createdAt);
      const [updated] = await tx
        .update(tickets)
        .set({
          lastMessage: summary({ ...msg, fileName: msg.media?.fileName }),
          unreadMessages: msg.fromMe || rated ? ticket.unreadMessages : sql`${tickets.unreadMessages} + 1`,
          updatedAt: new Date(),
        })
        .where(q.tickets.where(eq(tickets.id, ticket.id)))
        .returning();
      return { ticket: updated, stored, created };
    });
  } catch (err) {
    if (err instanceof Duplicate) return null;
    throw err;
  }
  const q = scoped(s.db, source.companyId);
  const [{ ticket, audience }, [message]] = await Promise.all([
    present(s, source.companyId, written.ticket),
    presentMessages(q, [written.stored]),
  ]);
  return {
    ticketId: written.ticket.id,
    messageId: written.stored.id,
    created: written.created,
    ticket,
    message,
    audience,
  };
}

const pick = ({ message, ticket, audience }: Delivery) => ({ message, ticket, audience });

/** Any driver's texts without what PostgreSQL cannot store (a NUL from a phone is dropped, not a failed message). */
export function storableInbound(msg: InboundMessage): InboundMessage {
  return {
    ...msg,
    body: storableText(msg.body),
    ...(msg.name !== undefined ? { name: storableText(msg.name) } : {}),
    ...(msg.participant
      ? { participant: { ...msg.participant, ...(msg.participant.name ? { name: storableText(msg.participant.name) } : {}) } }
      : {}),
    ...(msg.media ? { media: { ...msg.media, fileName: storableText(msg.media.fileName) } } : {}),
  };
}

/** Whether the company drops group messages (core §3 setting CheckMsgIsGroup). */
export async function groupsIgnored(s: Services, companyId: number): Promise<boolean> {
  return (await settingValue(scoped(s.db, companyId), "CheckMsgIsGroup")) === "enabled";
}

/** Whether a channel id is stored for the connection: one look at messages_channel_key (whatsapp_id, channel_id). */
export async function isStored(s: Services, source: InboundSource, channelId: string): Promise<boolean> {
  return (await findByChannelId(scoped(s.db, source.companyId), source.whatsappId, channelId)) !== null;
}

async function findByChannelId(q: ReturnType<typeof scoped>, whatsappId: number, channelId: string) {
  const [row] = await q.db
    .select({ id: messages.id })
    .from(messages)
    .where(q.messages.where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId))))
    .limit(1);
  return row ?? null;
}
