import { eq, isNotNull } from "drizzle-orm";
import type { ReadReceipt } from "../../channels/driver.js";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { ticketAudience } from "../../policies/tickets.js";

type TicketRow = typeof tickets.$inferSelect;

/**
 * Opening a conversation reads it: its contact's messages are marked read, the unread counter goes to
 * zero (`updateUnread` to everyone who sees the ticket) and the phone sends read receipts.
 * No transaction: opening a read conversation is one UPDATE that changes nothing; when it did read
 * messages, the counter follows in a second statement (a crash between them leaves a counter that the
 * next opening puts right).
 */
export async function markTicketRead(ctx: RequestCtx, ticket: TicketRow): Promise<TicketRow> {
  const q = scoped(ctx.db, ctx.companyId);
  const read = await ctx.db
    .update(messages)
    .set({ read: true })
    .where(q.messages.where(eq(messages.ticketId, ticket.id), eq(messages.read, false), eq(messages.fromMe, false)))
    .returning({ channelId: messages.channelId, key: messages.channelKey });
  if (read.length === 0 && ticket.unreadMessages === 0) return ticket;
  const [updated] = await ctx.db
    .update(tickets)
    .set({ unreadMessages: 0 })
    .where(q.tickets.where(eq(tickets.id, ticket.id)))
    .returning();
  if (!updated) return ticket;
  const audience = await ticketAudience(q, updated);
  ctx.events.publish({ type: "ticket.read", companyId: ctx.companyId, ticketId: ticket.id, audience });
  const receipts = read.flatMap((r) => (r.channelId ? [{ channelId: r.channelId, key: r.key }] : []));
  if (receipts.length) void sendReceipts(ctx, ticket, receipts);
  return updated;
}

/** Read receipts are a courtesy to the contact: a session that is down must not fail the read. */
async function sendReceipts(ctx: RequestCtx, ticket: TicketRow, receipts: ReadReceipt[]) {
  try {
    if (!ticket.whatsappId) return;
    const q = scoped(ctx.db, ctx.companyId);
    const [contact] = await q.db
      .select({ number: contacts.number, isGroup: contacts.isGroup })
      .from(contacts)
      .where(q.contacts.where(eq(contacts.id, ticket.contactId), isNotNull(contacts.number)));
    const driver = contact && (await ctx.sessions.driverFor(ctx.companyId, ticket.whatsappId));
    if (driver) await driver.markRead(contact.number, receipts, { isGroup: contact.isGroup });
  } catch (err) {
    ctx.log.debug({ err, ticketId: ticket.id }, "read receipts not sent");
  }
}
