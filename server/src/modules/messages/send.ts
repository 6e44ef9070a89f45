import { randomUUID } from "node:crypto";
import { type ErrorCode, Events, type MediaType, type MessageView, isErrorCode } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { MediaPayload } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { extensionOf, summary } from "../../pipeline/media.js";
import { ticketAudience } from "../../policies/tickets.js";
import { presentTickets } from "../tickets/presenter.js";
import { publishMessageUpdate } from "./broadcast.js";
import { presentMessages } from "./presenter.js";

type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export type Outgoing = {
  body: string;
  media?: MediaPayload;
  quoted?: MessageRow | null;
  /** The agent who typed it; null for automatic messages. */
  userId: number | null;
  isAutomatic?: boolean;
};

export function mediaTypeOf(mimetype: string): MediaType {
  const major = mimetype.split("/")[0].toLowerCase();
  if (major === "image") return "image";
  if (major === "audio") return "audio";
  if (major === "video") return "video";
  return "application";
}

/** A driver's failure as a catalogue code: its own when it names one, else ERR_SENDING_WAPP_MSG. */
export function driverError(err: unknown, fallback: ErrorCode): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown })?.code;
  return new AppError(isErrorCode(code) ? code : fallback);
}

/** The ticket's connection driver, or ERR_WAPP_NOT_INITIALIZED when it has none running. */
export async function driverOfTicket(s: Services, companyId: number, ticket: Pick<TicketRow, "whatsappId">) {
  const driver = ticket.whatsappId ? await s.sessions.driverFor(companyId, ticket.whatsappId) : null;
  if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  return driver;
}

/**
 * Sends one message to a ticket's contact and records it: the driver first (a failure answers an
 * error and stores nothing), then the row, the ticket's last message and the live events. The phone's
 * echo of the same message may arrive first: the row is keyed by the channel id, so it is one row.
 */
export async function sendToTicket(s: Services, companyId: number, ticket: TicketRow, out: Outgoing): Promise<MessageView> {
  const q = scoped(s.db, companyId);
  const [contact] = await q.db
    .select({ number: contacts.number, isGroup: contacts.isGroup })
    .from(contacts)
    .where(q.contacts.where(eq(contacts.id, ticket.contactId)));
  if (!contact?.number) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  const driver = await driverOfTicket(s, companyId, ticket);
  const opts = { quotedChannelId: out.quoted?.channelId ?? undefined, isGroup: contact.isGroup };

  const mediaPath = out.media
    ? await s.storage.write(companyId, `media/${randomUUID()}${extensionOf(out.media)}`, out.media.data)
    : null;
  let sent: Awaited<ReturnType<typeof driver.sendText>>;
  try {
    sent = out.media
      ? await driver.sendMedia(contact.number, { ...out.media, caption: out.body || undefined }, opts)
      : await driver.sendText(contact.number, out.body, opts);
  } catch (err) {
    if (mediaPath) await s.storage.remove(companyId, mediaPath);
    throw driverError(err, "ERR_SENDING_WAPP_MSG");
  }

  const mediaType = out.media ? mediaTypeOf(out.media.mimetype) : "chat";
  const values = {
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    channelId: sent.channelId,
    body: out.body,
    fromMe: true,
    read: true,
    ack: Math.max(1, s.sessions.takeEarlyAck(ticket.whatsappId, sent.channelId) ?? 0),
    mediaType,
    mediaPath,
    mediaName: out.media?.fileName ?? null,
    quotedMsgId: out.quoted?.id ?? null,
    userId: out.userId,
    isAutomatic: out.isAutomatic ?? false,
    createdAt: sent.timestamp,
  };
  const view = await withTransaction(s.db, async (tx, afterCommit) => {
    const t = scoped(tx, companyId);
    const [row] = await tx
      .insert(messages)
      .values(values)
      .onConflictDoUpdate({
        target: [messages.whatsappId, messages.channelId],
        targetWhere: sql`${messages.channelId} is not null`,
        set: {
          userId: values.userId,
          isAutomatic: values.isAutomatic,
          mediaPath: sql`coalesce(${messages.mediaPath}, ${mediaPath})`,
          mediaName: sql`coalesce(${messages.mediaName}, ${values.mediaName})`,
          quotedMsgId: sql`coalesce(${messages.quotedMsgId}, ${values.quotedMsgId})`,
        },
      })
      .returning();
    const [updated] = await tx
      .update(tickets)
      .set({ lastMessage: summary({ body: out.body, media: out.media, mediaType }), updatedAt: new Date() })
      .where(t.tickets.where(eq(tickets.id, ticket.id)))
      .returning();
    const [messageView] = await presentMessages(t, [row]);
    const [ticketView] = await presentTickets(t, [updated]);
    const audience = await ticketAudience(t, updated);
    afterCommit(() => {
      const to = s.realtime.toUsers(companyId, audience);
      to.emit(Events.appMessage(companyId), { action: "create", message: messageView, ticket: ticketView });
      to.emit(Events.ticket(companyId), { action: "update", ticket: ticketView });
    });
    return messageView;
  });
  // an ack that arrived while the row was being committed found nothing to update: apply it now
  const late = s.sessions.takeEarlyAck(ticket.whatsappId, sent.channelId);
  if (late !== null && late > view.ack) {
    const rows = await s.db
      .update(messages)
      .set({ ack: sql`greatest(${messages.ack}, ${late})`, updatedAt: new Date() })
      .where(and(eq(messages.companyId, companyId), eq(messages.id, view.id)))
      .returning();
    await publishMessageUpdate(s, companyId, rows);
    return { ...view, ack: Math.max(view.ack, late) };
  }
  return view;
}

/** Automatic messages (greetings, transfer notices) must never fail the change that caused them. */
export async function sendAutomatic(s: Services, companyId: number, ticket: TicketRow, body: string): Promise<void> {
  try {
    await sendToTicket(s, companyId, ticket, { body, userId: null, isAutomatic: true });
  } catch (err) {
    s.log.warn({ err, ticketId: ticket.id }, "automatic message not sent");
  }
}
