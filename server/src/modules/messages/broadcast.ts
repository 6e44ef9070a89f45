import { and, desc, eq, ne } from "drizzle-orm";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { messages, tickets } from "../../db/schema/index.js";
import { presentTicketsWithAudience, ticketsForEvents } from "../tickets/presenter.js";
import { presentMessages } from "./presenter.js";
import { gather } from "../../db/gather.js";

type MessageRow = typeof messages.$inferSelect;

/** A changed message (ack, deletion, edit) to everyone who may see its ticket. */
export async function publishMessageUpdate(s: Services, companyId: number, rows: MessageRow[]): Promise<void> {
  const q = scoped(s.db, companyId);
  if (rows.length === 0) return;
  const [found, views] = await gather(q.db, [
    () => ticketsForEvents(q, [...new Set(rows.map((row) => row.ticketId))]),
    () => presentMessages(q, rows),
  ]);
  rows.forEach((row, i) => {
    const ticket = found.get(row.ticketId);
    if (!ticket) return;
    s.events.publish({ type: "message.changed", companyId, message: views[i], ticket: ticket.view, audience: ticket.audience });
  });
}

/** A ticket's lastMessage as the list shows it: the text, or the file name of media without one. */
function summaryOf(row: Pick<MessageRow, "body" | "mediaName">): string {
  return (row.body.trim() || row.mediaName || "").slice(0, 255);
}

/**
 * Deleted messages (by an agent or by the contact): the ticket's lastMessage no longer shows a
 * deleted text. It becomes the newest message still there (or nothing), without moving the ticket
 * in the list; the ticket update goes out after the message update.
 */
export async function publishMessageDeletion(s: Services, companyId: number, rows: MessageRow[]): Promise<void> {
  const q = scoped(s.db, companyId);
  for (const ticketId of new Set(rows.map((row) => row.ticketId))) {
    const [latest] = await q.db
      .select({ body: messages.body, mediaName: messages.mediaName })
      .from(messages)
      .where(q.messages.where(and(eq(messages.ticketId, ticketId), eq(messages.isDeleted, false))))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    const lastMessage = latest ? summaryOf(latest) : "";
    // a ticket whose lastMessage already says this (an older message was deleted) is left alone
    const [updated] = await q.db
      .update(tickets)
      .set({ lastMessage })
      .where(q.tickets.where(and(eq(tickets.id, ticketId), ne(tickets.lastMessage, lastMessage))))
      .returning();
    await publishMessageUpdate(
      s,
      companyId,
      rows.filter((row) => row.ticketId === ticketId),
    );
    if (!updated) continue;
    const [{ view, audience }] = await presentTicketsWithAudience(q, [updated]);
    s.events.publish({ type: "ticket.changed", companyId, ticket: view, audience, lost: [] });
  }
}
