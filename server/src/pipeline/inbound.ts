import { randomUUID } from "node:crypto";
import { Ack, Events, storableText } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { InboundMessage } from "../channels/driver.js";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { messages, tickets } from "../db/schema/index.js";
import { withTransaction } from "../db/tx.js";
import { presentMessages } from "../modules/messages/presenter.js";
import { settingValue } from "../modules/settings/queries.js";
import { presentTickets } from "../modules/tickets/presenter.js";
import { ticketAudience } from "../policies/tickets.js";
import { upsertContact } from "./contact.js";
import { extensionOf, summary } from "./media.js";
import { ticketForInbound } from "./ticket.js";

export type InboundSource = { companyId: number; whatsappId: number };
export type InboundResult =
  | { stored: true; ticketId: number; messageId: number; created: boolean }
  | { stored: false; reason: "ignorable" | "group-ignored" | "duplicate" };

/** What runs after a message is stored and broadcast; the Areas issue hooks its bot and hours here. */
export type AfterInbound = (
  s: Services,
  source: InboundSource,
  result: { ticketId: number; messageId: number; msg: InboundMessage },
) => Promise<void>;
export const afterInboundHooks: AfterInbound[] = [];

class Duplicate extends Error {}

/**
 * A message from a channel, in order (behaviours: inbound path): drop what is not a conversation →
 * groups per CheckMsgIsGroup → contact → ticket → store once per (connection, channel id) → ticket
 * counters → commit → broadcast → hooks. A replayed event changes nothing.
 */
export async function handleInbound(s: Services, source: InboundSource, input: InboundMessage): Promise<InboundResult> {
  const msg = storableInbound(input);
  if (msg.ignorable || !msg.number) return { stored: false, reason: "ignorable" };
  const base = scoped(s.db, source.companyId);
  if (msg.isGroup && (await settingValue(base, "CheckMsgIsGroup")) === "enabled")
    return { stored: false, reason: "group-ignored" };
  if (await alreadyStored(s, source, msg.channelId)) return { stored: false, reason: "duplicate" };

  const mediaPath = msg.media
    ? await s.storage.write(source.companyId, `media/${randomUUID()}${extensionOf(msg.media)}`, msg.media.data)
    : null;
  let result: Extract<InboundResult, { stored: true }>;
  try {
    result = await withTransaction(s.db, async (tx, afterCommit) => {
      const q = scoped(tx, source.companyId);
      const contact = await upsertContact(q, source.whatsappId, msg);
      const { ticket, created } = await ticketForInbound(q, contact, source.whatsappId, msg.fromMe);
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
          // sent from the phone itself: it reached WhatsApp's server; received messages carry no ack of ours
          ack: msg.fromMe ? Ack.server : Ack.queued,
          mediaType: msg.mediaType,
          mediaPath,
          mediaName: msg.media?.fileName ?? null,
          quotedMsgId: quoted?.id ?? null,
          participant: msg.participant?.number ?? null,
          participantName: msg.participant?.name ?? null,
          createdAt: msg.timestamp ?? new Date(),
        })
        .onConflictDoNothing()
        .returning();
      // lost the race with a replay of the same event: undo the whole transaction
      if (!stored) throw new Duplicate();
      const [updated] = await tx
        .update(tickets)
        .set({
          lastMessage: summary(msg),
          unreadMessages: msg.fromMe ? ticket.unreadMessages : sql`${tickets.unreadMessages} + 1`,
          updatedAt: new Date(),
        })
        .where(q.tickets.where(eq(tickets.id, ticket.id)))
        .returning();
      const [ticketView] = await presentTickets(q, [updated]);
      const [messageView] = await presentMessages(q, [stored]);
      const audience = await ticketAudience(q, updated);
      afterCommit(() => {
        const to = s.realtime.toUsers(source.companyId, audience);
        to.emit(Events.ticket(source.companyId), { action: "update", ticket: ticketView });
        to.emit(Events.appMessage(source.companyId), { action: "create", message: messageView, ticket: ticketView });
      });
      return { stored: true as const, ticketId: ticket.id, messageId: stored.id, created };
    });
  } catch (err) {
    // nothing was committed: the file has no row to belong to
    if (mediaPath) await s.storage.remove(source.companyId, mediaPath);
    if (err instanceof Duplicate) return { stored: false, reason: "duplicate" };
    throw err;
  }
  // the message is stored whatever a hook does; a failing hook is logged, not redelivered
  for (const hook of afterInboundHooks) {
    try {
      await hook(s, source, { ticketId: result.ticketId, messageId: result.messageId, msg });
    } catch (err) {
      s.log.error({ err, ticketId: result.ticketId }, "after-inbound hook failed");
    }
  }
  return result;
}

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

async function alreadyStored(s: Services, source: InboundSource, channelId: string) {
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
