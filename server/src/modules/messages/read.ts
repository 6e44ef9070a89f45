import { Events } from "@charla/contracts";
import { eq, isNotNull } from "drizzle-orm";
import type { RequestCtx } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { ticketAudience } from "../../policies/tickets.js";

type TicketRow = typeof tickets.$inferSelect;

/**
 * Opening a conversation reads it: its contact's messages are marked read, the unread counter goes to
 * zero (`updateUnread` to everyone who sees the ticket) and the phone sends read receipts.
 */
export async function markTicketRead(ctx: RequestCtx, ticket: TicketRow): Promise<TicketRow> {
  const result = await withTransaction(ctx.db, async (tx, afterCommit) => {
    const q = scoped(tx, ctx.companyId);
    const read = await tx
      .update(messages)
      .set({ read: true })
      .where(q.messages.where(eq(messages.ticketId, ticket.id), eq(messages.read, false), eq(messages.fromMe, false)))
      .returning({ channelId: messages.channelId });
    if (read.length === 0 && ticket.unreadMessages === 0) return { ticket, channelIds: [] as string[] };
    const [updated] = await tx
      .update(tickets)
      .set({ unreadMessages: 0 })
      .where(q.tickets.where(eq(tickets.id, ticket.id)))
      .returning();
    const audience = await ticketAudience(q, updated);
    afterCommit(() =>
      ctx.realtime
        .toUsers(ctx.companyId, audience)
        .emit(Events.ticket(ctx.companyId), { action: "updateUnread", ticketId: ticket.id }),
    );
    return { ticket: updated, channelIds: read.flatMap((r) => (r.channelId ? [r.channelId] : [])) };
  });
  if (result.channelIds.length) void sendReceipts(ctx, ticket, result.channelIds);
  return result.ticket;
}

/** Read receipts are a courtesy to the contact: a session that is down must not fail the read. */
async function sendReceipts(ctx: RequestCtx, ticket: TicketRow, channelIds: string[]) {
  try {
    if (!ticket.whatsappId) return;
    const q = scoped(ctx.db, ctx.companyId);
    const [contact] = await q.db
      .select({ number: contacts.number, isGroup: contacts.isGroup })
      .from(contacts)
      .where(q.contacts.where(eq(contacts.id, ticket.contactId), isNotNull(contacts.number)));
    const driver = contact && (await ctx.sessions.driverFor(ctx.companyId, ticket.whatsappId));
    if (driver) await driver.markRead(contact.number, channelIds, { isGroup: contact.isGroup });
  } catch (err) {
    ctx.log.debug({ err, ticketId: ticket.id }, "read receipts not sent");
  }
}
