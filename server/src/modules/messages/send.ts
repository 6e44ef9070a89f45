import {
  Ack,
  type ChatWindow,
  type ContactCard,
  type ErrorCode,
  type MediaType,
  type MessageView,
  type SharedLocation,
  isErrorCode,
  locationBody,
  locationOfBody,
  parseVcard,
  vcardBody,
} from "@charla/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type ChannelDriver, outgoingMessageId, type Sent, type Share, type TemplateMessage } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import type { Db, Tx } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { cloudWindows, contacts, messages, tickets, whatsapps } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { type Viewer, canSeeTicket } from "../../policies/tickets.js";
import { fillTemplate } from "../../lib/template.js";
import { type Fallback, fallbackTemplate } from "../cloud/fallback.js";
import { assertCloudLength, windowOf } from "../cloud/window.js";
import { templateFactsOf } from "../tickets/automatic-messages.js";
import { announceCommitted, completeOutgoing } from "./complete.js";
import { presentMessages } from "./presenter.js";

type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

/** A file already in the company's store (an upload streamed to disk), to go with a message. */
export type StoredMedia = { path: string; mimetype: string; fileName: string };

export type Outgoing = {
  body: string;
  /** Owned by the send from here on: kept if its message is recorded, removed otherwise. */
  media?: StoredMedia;
  quoted?: MessageRow | null;
  /** The agent who typed it; null for automatic messages. */
  userId: number | null;
  isAutomatic?: boolean;
  /** The sender's idempotency key: a request repeated with it finds its message instead of sending again. */
  clientId?: string;
  /** A location or contact card instead of text: recorded in its core §2 body format, sent as itself. */
  share?: { location: SharedLocation } | { contact: ContactCard };
  /**
   * An approved template (the Cloud API), `body` being its text filled: the one message that may go
   * outside the customer's 24-hour window. Anything else is refused there before it is recorded.
   */
  template?: TemplateMessage;
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
 * The message an answer in `ticket` may quote: one of the same contact's conversations that the
 * viewer may see (core §6). Anything else, another company's included, is not found: its text must
 * never reach the customer inside a quote.
 */
export async function quotableMessage(q: Scoped, viewer: Viewer, ticket: TicketRow, id: number): Promise<MessageRow> {
  const quoted = await q.messages.findById(id);
  if (!quoted || quoted.isDeleted) throw new AppError("ERR_NO_MESSAGE_FOUND");
  if (quoted.ticketId === ticket.id) return quoted;
  const [home] = await q.db
    .select()
    .from(tickets)
    .where(q.tickets.where(eq(tickets.id, quoted.ticketId)));
  if (!home || home.contactId !== ticket.contactId || !canSeeTicket(viewer, home)) throw new AppError("ERR_NO_MESSAGE_FOUND");
  return quoted;
}

/**
 * Sends one message to a ticket's contact, record first (docs/acks.md):
 * 1. the row is committed with ack 0 (queued) and the channel id the message will carry, so an echo
 *    or ack of the phone finds it, and a failure on either side leaves a trace;
 * 2. only then the driver sends; if it throws, the row is marked failed (-1 with the reason), shown
 *    to the ticket's audience, and the error answers the request;
 * 3. on success the row is completed (ack pending or better, the driver's own id when it chose one)
 *    and the ticket's last message and live events follow.
 * A request repeated with the same `clientId` finds its row: it never sends twice; a failed one is
 * sent again under the same channel id.
 */
export async function sendToTicket(s: Services, companyId: number, ticket: TicketRow, out: Outgoing): Promise<MessageView> {
  const q = scoped(s.db, companyId);
  const { contact, driver } = await recipientOf(s, companyId, ticket)
    .then(({ window, ...recipient }) => {
      // Meta drops free text outside the window without a word: refused here, before any record
      if (!out.template && !window.open) throw new AppError("ERR_CLOUD_WINDOW_CLOSED");
      // Meta refuses longer texts and captions: told now, before a record that could only fail
      if (window.applies && !out.template && !out.share) assertCloudLength(out.body, { caption: Boolean(out.media) });
      return recipient;
    })
    .catch(async (err) => {
      // nothing will be recorded: the uploaded file has no message to belong to
      if (out.media) await s.storage.remove(companyId, out.media.path);
      throw err;
    });

  const recorded = await recordOutgoing(s, companyId, ticket, out);
  if (!recorded.send) return (await presentMessages(q, [recorded.row]))[0];
  return dispatch(s, companyId, ticket, { contact, driver }, recorded.row, {
    mimetype: out.media?.mimetype,
    quotedChannelId: out.quoted?.channelId ?? undefined,
    template: out.template,
  });
}

/** Steps 2 and 3 of a recorded row: the driver sends it under its channel id, the row is completed or marked failed. */
async function dispatch(
  s: Services,
  companyId: number,
  ticket: TicketRow,
  { contact, driver }: Recipient,
  row: MessageRow,
  {
    mimetype,
    quotedChannelId,
    template,
    keepQueued,
  }: {
    mimetype?: string;
    quotedChannelId?: string;
    template?: TemplateMessage;
    /** A refusal the caller will try again (the channel accepted nothing): the row stays queued, not failed. */
    keepQueued?: ErrorCode;
  } = {},
): Promise<MessageView> {
  const opts = { quotedChannelId, isGroup: contact.isGroup, messageId: row.channelId ?? undefined };
  let sent: Sent;
  try {
    const share = shareOfRow(row);
    if (template) {
      if (!driver.sendTemplate) throw new AppError("ERR_CLOUD_NOT_A_CLOUD_CONNECTION");
      sent = await driver.sendTemplate(contact.number, template, opts);
    }
    // the recorded file (a retry sends the first request's), read only now, one file at a time
    else if (share) sent = await driver.sendShared(contact.number, share, opts);
    else if (row.mediaPath)
      sent = await driver.sendMedia(
        contact.number,
        {
          data: await s.storage.read(companyId, row.mediaPath),
          mimetype: mimetype ?? "application/octet-stream",
          fileName: row.mediaName ?? "file",
          caption: row.body || undefined,
        },
        opts,
      );
    else sent = await driver.sendText(contact.number, row.body, opts);
  } catch (err) {
    const error = driverError(err, "ERR_SENDING_WAPP_MSG");
    if (keepQueued && error.code === keepQueued) throw error;
    await markFailed(s, companyId, ticket, row, error.code).catch((e) =>
      s.log.error({ err: e, messageId: row.id }, "failed message not marked"),
    );
    throw error;
  }
  return completeOutgoing(s, companyId, ticket, row, sent);
}

/** What a recorded location or contact card row sends (its body is all there is to it, so retries need nothing else). */
function shareOfRow(row: MessageRow): Share | null {
  if (row.mediaType === "vcard") return { kind: "contact", name: parseVcard(row.body).name, vcard: row.body };
  if (row.mediaType !== "locationMessage") return null;
  const location = locationOfBody(row.body);
  if (!location) throw new AppError("ERR_SENDING_WAPP_MSG");
  return { kind: "location", location };
}

function recordedForm(out: Outgoing): { body: string; mediaType: MediaType } {
  if (out.template) return { body: out.body, mediaType: "chat" };
  if (out.share && "location" in out.share) return { body: locationBody(out.share.location), mediaType: "locationMessage" };
  if (out.share) return { body: vcardBody(out.share.contact), mediaType: "vcard" };
  return { body: out.body, mediaType: out.media ? mediaTypeOf(out.media.mimetype) : "chat" };
}

type Recipient = { contact: { number: string; isGroup: boolean }; driver: ChannelDriver };

/**
 * The contact's number, the running driver of the ticket's connection and the customer's Cloud API
 * window (in the same read), checked before anything is recorded.
 */
async function recipientOf(s: Services, companyId: number, ticket: TicketRow): Promise<Recipient & { window: ChatWindow }> {
  const q = scoped(s.db, companyId);
  const [found] = await q.db
    .select({
      contact: { number: contacts.number, isGroup: contacts.isGroup },
      provider: whatsapps.provider,
      lastInboundAt: cloudWindows.lastInboundAt,
    })
    .from(contacts)
    .leftJoin(whatsapps, and(eq(whatsapps.companyId, contacts.companyId), eq(whatsapps.id, ticket.whatsappId ?? 0)))
    .leftJoin(
      cloudWindows,
      and(
        eq(cloudWindows.companyId, contacts.companyId),
        eq(cloudWindows.whatsappId, whatsapps.id),
        eq(cloudWindows.number, contacts.number),
      ),
    )
    .where(q.contacts.where(eq(contacts.id, ticket.contactId)));
  const recipient = await recipientFrom(s, companyId, ticket, found?.contact ?? null);
  return { ...recipient, window: windowOf(found?.provider ?? null, found?.lastInboundAt ?? null) };
}

/** The recipient of a contact already read: a number to send to and the running driver. */
async function recipientFrom(
  s: Services,
  companyId: number,
  ticket: TicketRow,
  contact: { number: string | null; isGroup: boolean | null } | null,
): Promise<Recipient> {
  if (!contact?.number) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  return { contact: { number: contact.number, isGroup: !!contact.isGroup }, driver: await driverOfTicket(s, companyId, ticket) };
}

type Recorded = { row: MessageRow; send: boolean };

/**
 * Step 1: the committed row (and its file). A repeated `clientId` returns the existing row, to be
 * sent only when it had failed and this request is the one that claimed it again.
 */
async function recordOutgoing(s: Services, companyId: number, ticket: TicketRow, out: Outgoing): Promise<Recorded> {
  const q = scoped(s.db, companyId);
  const mediaPath = out.media?.path ?? null;
  const existing = out.clientId ? await byClientId(q, ticket.id, out.clientId) : null;
  if (existing) {
    // the repeated request's own copy of the file is not needed: the recorded one is sent
    if (mediaPath && mediaPath !== existing.mediaPath) await s.storage.remove(companyId, mediaPath);
    return retryOf(s, existing);
  }
  let row: MessageRow | undefined;
  try {
    [row] = await s.db
      .insert(messages)
      .values({
        companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        channelId: outgoingMessageId(),
        ...recordedForm(out),
        fromMe: true,
        read: true,
        ack: Ack.queued,
        mediaPath,
        mediaName: out.media?.fileName ?? null,
        quotedMsgId: out.quoted?.id ?? null,
        userId: out.userId,
        isAutomatic: out.isAutomatic ?? false,
        clientId: out.clientId ?? null,
      })
      .onConflictDoNothing({
        target: [messages.companyId, messages.ticketId, messages.clientId],
        where: sql`${messages.clientId} is not null`,
      })
      .returning();
  } catch (err) {
    // nothing recorded, so nothing is sent: the file has no row to belong to
    if (mediaPath) await s.storage.remove(companyId, mediaPath);
    throw err;
  }
  if (row) return { row, send: true };
  // the same clientId was recorded a moment ago by a concurrent request: that one sends
  if (mediaPath) await s.storage.remove(companyId, mediaPath);
  const twin = out.clientId ? await byClientId(q, ticket.id, out.clientId) : null;
  if (!twin) throw new AppError("ERR_SENDING_WAPP_MSG");
  return { row: twin, send: false };
}

async function byClientId(q: Scoped, ticketId: number, clientId: string): Promise<MessageRow | null> {
  const [row] = await q.db
    .select()
    .from(messages)
    .where(q.messages.where(and(eq(messages.ticketId, ticketId), eq(messages.clientId, clientId))));
  return row ?? null;
}

/** A repeated request: sent, queued or in flight answers the row as it is; failed is claimed to send again. */
async function retryOf(s: Services, row: MessageRow): Promise<Recorded> {
  if (row.ack !== Ack.failed) return { row, send: false };
  const [claimed] = await s.db
    .update(messages)
    .set({ ack: Ack.queued, ackError: null, updatedAt: new Date() })
    .where(and(eq(messages.companyId, row.companyId), eq(messages.id, row.id), eq(messages.ack, Ack.failed)))
    .returning();
  return claimed ? { row: claimed, send: true } : { row, send: false };
}

/** Step 2 failed: the row stays, marked failed with the reason, and the ticket's audience sees it. */
async function markFailed(s: Services, companyId: number, ticket: TicketRow, row: MessageRow, code: ErrorCode) {
  const [failed] = await s.db
    .update(messages)
    .set({ ack: Ack.failed, ackError: code, updatedAt: new Date() })
    // an ack that already said the message reached WhatsApp wins over the driver's late error
    .where(and(eq(messages.companyId, companyId), eq(messages.id, row.id), eq(messages.ack, Ack.queued)))
    .returning();
  if (failed) await announceCommitted(s, scoped(s.db, companyId), companyId, ticket, failed);
}

/**
 * Step 1 of automatic messages inside the caller's transaction, with the change that causes them
 * (a rating stored, a ticket accepted, transferred, expired, the bot's step): both commit or neither
 * does, so a crash can neither lose the messages nor, run again, record them twice. One statement for
 * any number of texts; the rows come back in the texts' order. `queueAutomatic` (automatic.ts) adds
 * the job that sends them after the commit. `at`: their time, when they must sort right after the
 * message that caused them (a rating answer, stored in the same transaction); else the transaction's.
 */
export async function recordAutomatic(
  db: Db | Tx,
  companyId: number,
  ticket: TicketRow,
  bodies: string[],
  at?: Date,
): Promise<MessageRow[]> {
  if (bodies.length === 0) return [];
  const rows = await db
    .insert(messages)
    .values(automaticValues(companyId, ticket, bodies, at))
    .returning();
  // ids follow the values' order (one statement, one sequence)
  return rows.sort((x, y) => x.id - y.id);
}

/** The rows of automatic messages, queued under channel ids of their own (`recordAutomatic`, `queueAutomatic`). */
export function automaticValues(companyId: number, ticket: TicketRow, bodies: string[], at?: Date) {
  return bodies.map((body) => ({
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    channelId: outgoingMessageId(),
    body,
    mediaType: "chat",
    fromMe: true,
    read: true,
    ack: Ack.queued,
    userId: null,
    isAutomatic: true,
    ...(at ? { createdAt: at } : {}),
  }));
}

/**
 * Steps 2 and 3 for rows `recordAutomatic` committed, in order (the `message.deliver` job). A row no
 * longer queued is left alone: a run after a crash never sends what went out or failed already, and
 * one cut off mid-send goes again under its recorded channel id. Without a reachable session it
 * throws, so the job tries again later, the rows still queued; on the last attempt, or for any other
 * failure, the row is marked failed (-1) for the agents to see.
 * A Cloud API customer whose 24-hour window is closed gets the connection's fallback template instead
 * (once a run: the rows after it fail, as free text would), or, without one, the row fails with
 * ERR_CLOUD_WINDOW_CLOSED: never a text Meta drops silently.
 */
export async function deliverQueued(
  s: Services,
  companyId: number,
  messageIds: number[],
  { lastAttempt }: { lastAttempt: boolean },
): Promise<void> {
  const q = scoped(s.db, companyId);
  // the rows, their tickets, contacts and Cloud API windows in one read: the job is claimed, so no
  // other run moves them meanwhile
  const found = await q.db
    .select({
      row: messages,
      ticket: tickets,
      contact: { number: contacts.number, isGroup: contacts.isGroup },
      provider: whatsapps.provider,
      lastInboundAt: cloudWindows.lastInboundAt,
    })
    .from(messages)
    .innerJoin(tickets, and(eq(tickets.companyId, messages.companyId), eq(tickets.id, messages.ticketId)))
    .leftJoin(contacts, and(eq(contacts.companyId, tickets.companyId), eq(contacts.id, tickets.contactId)))
    .leftJoin(whatsapps, and(eq(whatsapps.companyId, tickets.companyId), eq(whatsapps.id, tickets.whatsappId)))
    .leftJoin(
      cloudWindows,
      and(
        eq(cloudWindows.companyId, tickets.companyId),
        eq(cloudWindows.whatsappId, tickets.whatsappId),
        eq(cloudWindows.number, contacts.number),
      ),
    )
    .where(q.messages.where(inArray(messages.id, messageIds)));
  const byId = new Map(found.map((f) => [f.row.id, f]));
  let templated = false;
  for (const id of messageIds) {
    const { row, ticket, contact, provider, lastInboundAt } = byId.get(id) ?? {};
    if (!row || !ticket || row.ack !== Ack.queued) continue;
    let recipient: Recipient;
    try {
      recipient = await recipientFrom(s, companyId, ticket, contact ?? null);
    } catch (err) {
      const error = driverError(err, "ERR_WAPP_NOT_INITIALIZED");
      // the job's last error names the code, not a text in one language
      if (!lastAttempt && error.code === "ERR_WAPP_NOT_INITIALIZED") throw new Error(error.code);
      await markFailed(s, companyId, ticket, row, error.code);
      continue;
    }
    let sending = row;
    let template: TemplateMessage | undefined;
    if (!windowOf(provider ?? null, lastInboundAt ?? null).open) {
      const instead = templated ? null : await fallbackOf(s, companyId, ticket).catch((err) => driverError(err, "ERR_CLOUD_API"));
      if (!instead || instead instanceof AppError) {
        await markFailed(s, companyId, ticket, row, instead?.code ?? "ERR_CLOUD_WINDOW_CLOSED");
        continue;
      }
      const recorded = await recordAsTemplate(s, companyId, row, instead);
      if (!recorded) continue;
      templated = true;
      sending = recorded;
      template = instead.message;
    }
    // a channel limiting its sends (Meta's throughput refusals) accepted nothing: the job tries this
    // row and the ones after it again after its backoff, in order; on the last attempt it fails visibly
    const keepQueued = lastAttempt ? undefined : "ERR_CLOUD_RATE_LIMITED";
    try {
      await dispatch(s, companyId, ticket, recipient, sending, { template, keepQueued });
    } catch (err) {
      if (keepQueued && err instanceof AppError && err.code === keepQueued) throw new Error(err.code);
      s.log.warn({ err, ticketId: ticket.id, messageId: row.id }, "automatic message not sent");
    }
  }
}

/** The connection's fallback template for the ticket, its parameters filled with the ticket's variables. */
async function fallbackOf(s: Services, companyId: number, ticket: TicketRow): Promise<Fallback> {
  const q = scoped(s.db, companyId);
  const wa = ticket.whatsappId ? await q.whatsapps.findById(ticket.whatsappId) : null;
  if (!wa) throw new AppError("ERR_CLOUD_WINDOW_CLOSED");
  const agent = ticket.userId ? await q.users.findById(ticket.userId) : null;
  const facts = await templateFactsOf(q, ticket, agent);
  return fallbackTemplate(s, companyId, wa, (param) => fillTemplate(param, facts));
}

/**
 * Record first, for a row going as the template: it shows what the customer gets (the template's text,
 * no file) before it goes; null when the row is no longer queued (another run took it).
 */
async function recordAsTemplate(s: Services, companyId: number, row: MessageRow, fallback: Fallback): Promise<MessageRow | null> {
  const [updated] = await s.db
    .update(messages)
    .set({ body: fallback.body, mediaType: "chat", mediaPath: null, mediaName: null, updatedAt: new Date() })
    .where(and(eq(messages.companyId, companyId), eq(messages.id, row.id), eq(messages.ack, Ack.queued)))
    .returning();
  // the file was the message's own copy (a schedule keeps its own)
  if (updated && row.mediaPath) await s.storage.remove(companyId, row.mediaPath).catch(() => undefined);
  return updated ?? null;
}
