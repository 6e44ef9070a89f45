import { type MessageView, V, can } from "@charla/contracts";
import type { Principal, Services } from "../../context.js";
import type { tickets } from "../../db/schema/index.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { AppError, found } from "../../lib/app-error.js";
import { assertNotHeldByBot } from "../../policies/tickets.js";
import { visibleTicket } from "../tickets/queries.js";
import { type Viewer, isStaff, loadViewer } from "../tickets/viewer.js";
import { publishMessageDeletion } from "./broadcast.js";
import { type Outgoing, type StoredMedia, driverOfTicket, quotableMessage, sendToTicket } from "./send.js";

type TicketRow = typeof tickets.$inferSelect;

/**
 * Who writes. A `user` (the route's caller) goes by every rule of core §6: sees what the user sees,
 * answers only their own open tickets unless staff, is held off by the chatbot unless staff, signs when
 * allowed. The `company` (an external API token) has no user to check: it writes to the ticket the
 * company's door made ready for it (modules/tickets/openings.ts `ticketForCompany`: live, or closed
 * for a "send and close"), never signs, and its messages carry no user.
 */
export type Actor = { kind: "user"; user: Principal } | { kind: "company" };

export const asUser = (user: Principal): Actor => ({ kind: "user", user });
export const asCompany: Actor = { kind: "company" };

/** Staff's view with an id no user has: the company sees every ticket and owns none. */
const companyViewer: Viewer = {
  id: 0,
  name: "",
  profile: "admin",
  super: false,
  allTicket: "enable",
  queueIds: [],
  areaConnectionIds: [],
  whatsappId: null,
};

export const viewerOf = (q: Scoped, actor: Actor): Promise<Viewer> =>
  actor.kind === "user" ? loadViewer(q, actor.user) : Promise.resolve(companyViewer);

/** The checks of writing to a ticket (core §4, §6): visible, not the bot's, open, and the writer's own or staff's. */
export async function writableTicket(q: Scoped, viewer: Viewer, ticketId: number): Promise<TicketRow> {
  const ticket = await visibleTicket(q, viewer, { id: ticketId });
  // the company's own door already chose and prepared the ticket (openings.ts): any state is its to write to
  if (viewer === companyViewer) return ticket;
  // the bot's conversation is read-only to agents until it lets go (issue 26)
  assertNotHeldByBot(viewer, ticket);
  if (ticket.status !== "open" || (ticket.userId !== viewer.id && !isStaff(viewer))) throw new AppError("ERR_TICKET_NOT_OPEN");
  return ticket;
}

/** An answer before its checks: text (or a location / contact card) and the files already in the company's store. */
export type AnswerDraft = {
  body: string;
  quotedId: number | null;
  sign: boolean;
  /** The sender's idempotency key (see Outgoing.clientId). */
  clientId?: string;
  files: StoredMedia[];
  share?: Outgoing["share"];
};

export type AnswerOptions = {
  /**
   * Told of each file as it goes to its send, which owns it from then on (kept if recorded, removed
   * otherwise). A file never handed over (the answer refused, or an earlier send failed) stays the
   * caller's to remove.
   */
  onHandOver?: (file: StoredMedia) => void;
};

/**
 * An answer to a ticket's contact after the checks of core §4, §6: text, a location or contact
 * card, or one message per file (the text, signed when asked and allowed, is the first file's
 * caption). A quote may come from any conversation of the same contact the writer may see.
 */
export async function answerTicket(
  s: Services,
  companyId: number,
  actor: Actor,
  ticketId: number,
  draft: AnswerDraft,
  opts: AnswerOptions = {},
): Promise<MessageView[]> {
  const q = scoped(s.db, companyId);
  const viewer = await viewerOf(q, actor);
  const ticket = await writableTicket(q, viewer, ticketId);
  const text = draft.body.trim();
  if (!text && draft.files.length === 0 && !draft.share)
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "body", message: V.emptyMessage }] });
  // a quote is checked like a read of its ticket: its text goes to the customer inside the reply
  const quoted = draft.quotedId ? await quotableMessage(q, viewer, ticket, draft.quotedId) : null;
  const signer = actor.kind === "user" && draft.sign && can(actor.user, "messages.sign") ? actor.user : null;
  const signed = text && signer ? `*${signer.name}*\n${draft.body}` : draft.body;
  const userId = actor.kind === "user" ? viewer.id : null;
  const send = (out: Omit<Outgoing, "userId">) => sendToTicket(s, companyId, ticket, { ...out, userId });

  // a pin or a card is the whole message: no text, no signature
  if (draft.share) return [await send({ body: "", share: draft.share, quoted, clientId: draft.clientId })];
  if (draft.files.length === 0) return [await send({ body: signed, quoted, clientId: draft.clientId })];
  const sent: MessageView[] = [];
  for (const [i, media] of draft.files.entries()) {
    opts.onHandOver?.(media);
    sent.push(
      await send({
        body: i === 0 ? (text ? signed : "") : "",
        media,
        quoted: i === 0 ? quoted : null,
        // one key per file of the request, so a repeated request finds each of them
        clientId: draft.clientId && (i === 0 ? draft.clientId : `${draft.clientId}:${i}`),
      }),
    );
  }
  return sent;
}

/**
 * "typing…" on the contact's phone while an answer is written: refused like the answer itself
 * would be, then a courtesy of the channel whose failure is only logged.
 */
export async function showTyping(s: Services, companyId: number, actor: Actor, ticketId: number, typing: boolean): Promise<void> {
  const q = scoped(s.db, companyId);
  const ticket = await writableTicket(q, await viewerOf(q, actor), ticketId);
  const contact = found(await q.contacts.findById(ticket.contactId), "ERR_NO_CONTACT_FOUND");
  try {
    const driver = await driverOfTicket(s, companyId, ticket);
    await driver.typing?.(contact.number, typing, { isGroup: contact.isGroup });
  } catch (err) {
    s.log.debug({ err, ticketId: ticket.id }, "typing not shown");
  }
}

/** How long WhatsApp accepts "delete for everyone" after a message was sent. */
export const REVOKE_WINDOW_MS = 60 * 3_600_000;

/** Own messages only (core §6), deleted for everyone on the phone; the row stays, marked deleted. */
export async function deleteMessage(s: Services, companyId: number, actor: Actor, messageId: number): Promise<void> {
  const q = scoped(s.db, companyId);
  const viewer = await viewerOf(q, actor);
  const message = found(await q.messages.findById(messageId), "ERR_NO_MESSAGE_FOUND");
  const ticket = await visibleTicket(q, viewer, { id: message.ticketId }).catch(() => {
    throw new AppError("ERR_NO_MESSAGE_FOUND");
  });
  if (!message.fromMe || message.isDeleted) throw new AppError("ERR_DELETE_WAPP_MSG");
  // an agent deletes what they sent or what was sent on their own ticket, not a colleague's words
  if (!isStaff(viewer) && message.userId !== viewer.id && ticket.userId !== viewer.id) throw new AppError("ERR_NO_PERMISSION");
  // WhatsApp lets a sent message be deleted for everyone for about 60 hours; past that the phone keeps
  // it, so it is refused as the spec's "message may be too old" rather than hidden here alone
  if (message.channelId && message.ack > 0 && Date.now() - message.createdAt.getTime() > REVOKE_WINDOW_MS) {
    throw new AppError("ERR_FETCH_WAPP_MSG");
  }
  if (message.channelId) {
    const driver = await driverOfTicket(s, companyId, { whatsappId: message.whatsappId ?? ticket.whatsappId });
    const contact = found(await q.contacts.findById(ticket.contactId), "ERR_NO_CONTACT_FOUND");
    try {
      await driver.deleteForEveryone(contact.number, message.channelId, true, { isGroup: contact.isGroup });
    } catch {
      throw new AppError("ERR_DELETE_WAPP_MSG");
    }
  }
  const updated = await q.messages.update(message.id, { isDeleted: true });
  if (updated) await publishMessageDeletion(s, companyId, [updated]);
}
