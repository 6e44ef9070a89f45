import { Ack, type MessageView } from "@charla/contracts";
import { and, eq, getTableColumns, ne, type SQL, sql } from "drizzle-orm";
import type { Sent } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import type { DomainEvent } from "../../events/index.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { messages, tickets } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { summary } from "../../pipeline/media.js";
import { presentTicketsWithAudience } from "../tickets/presenter.js";
import { publishMessageUpdate } from "./broadcast.js";
import { presentMessages } from "./presenter.js";

type TicketRow = typeof tickets.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

/**
 * Step 3: the row completed with what the driver says. A driver that chose its own id (it could not
 * take ours) may have had its echo stored already under that id: the echo row takes our details and
 * our queued row goes, so the message is one row either way.
 */
export async function completeOutgoing(
  s: Services,
  companyId: number,
  ticket: TicketRow,
  row: MessageRow,
  sent: Sent,
): Promise<MessageView> {
  const early = s.sessions.takeEarlyAck(ticket.whatsappId, sent.channelId) ?? Ack.queued;
  const lastMessage = summary({ body: row.body, mediaType: row.mediaType, fileName: row.mediaName });
  const ack = sql`case when ${messages.ack} = ${Ack.failed} then ${Ack.failed} else greatest(${messages.ack}, ${Ack.pending}, ${early}) end`;
  const view =
    sent.channelId === row.channelId
      ? await completeUnderOurId(s, companyId, ticket, row, sent, ack, lastMessage)
      : await completeUnderDriverId(s, companyId, ticket, row, sent, ack, lastMessage);
  // an ack that arrived while the row was being committed found nothing to update: apply it now
  const late = s.sessions.takeEarlyAck(ticket.whatsappId, sent.channelId);
  if (late !== null && late > view.ack) {
    const rows = await s.db
      .update(messages)
      .set({ ack: sql`greatest(${messages.ack}, ${late})`, ackError: null, updatedAt: new Date() })
      .where(and(eq(messages.companyId, companyId), eq(messages.id, view.id)))
      .returning();
    await publishMessageUpdate(s, companyId, rows);
    return { ...view, ack: Math.max(view.ack, late) };
  }
  return view;
}

/**
 * The usual case, the driver took our channel id: the row and the ticket's last message completed by
 * one statement (the row's update rides along as a CTE), no transaction around it, then presented.
 * Nothing but the ack is read back of the row: the rest is what was recorded.
 */
async function completeUnderOurId(
  s: Services,
  companyId: number,
  ticket: TicketRow,
  row: MessageRow,
  sent: Sent,
  ack: SQL,
  lastMessage: string,
): Promise<MessageView> {
  const q = scoped(s.db, companyId);
  const now = new Date();
  const completed = s.db.$with("completed").as(
    s.db
      .update(messages)
      .set({ channelContent: sent.content ?? null, ack, ackError: null, updatedAt: now })
      .where(q.messages.where(eq(messages.id, row.id)))
      .returning({ ack: messages.ack }),
  );
  const [updated] = await s.db
    .with(completed)
    .update(tickets)
    .set({ lastMessage, updatedAt: now })
    .where(q.tickets.where(eq(tickets.id, ticket.id)))
    .returning({ ...getTableColumns(tickets), completedAck: sql<number | null>`(select ack from completed)` });
  if (!updated) throw new AppError("ERR_NO_TICKET_FOUND");
  const { completedAck, ...after } = updated;
  if (completedAck === null) throw new AppError("ERR_NO_MESSAGE_FOUND");
  const done: MessageRow = { ...row, channelContent: sent.content ?? null, ack: completedAck, ackError: null, updatedAt: now };
  return announceCommitted(s, q, companyId, after, done);
}

/**
 * The driver chose its own id (it could not take ours): its echo may have been stored already under
 * that id, so the echo row takes our details and our queued row goes, and the message is one row.
 */
async function completeUnderDriverId(
  s: Services,
  companyId: number,
  ticket: TicketRow,
  row: MessageRow,
  sent: Sent,
  ack: SQL,
  lastMessage: string,
): Promise<MessageView> {
  return withTransaction(s, async (tx, { publish }) => {
    const t = scoped(tx, companyId);
    const [echo] = await tx
      .select()
      .from(messages)
      .where(
        t.messages.where(
          eq(messages.whatsappId, ticket.whatsappId ?? -1),
          eq(messages.channelId, sent.channelId),
          ne(messages.id, row.id),
        ),
      );
    let done: MessageRow;
    if (echo) {
      await tx.delete(messages).where(t.messages.where(eq(messages.id, row.id)));
      [done] = await tx
        .update(messages)
        .set({
          userId: row.userId,
          isAutomatic: row.isAutomatic,
          clientId: row.clientId,
          mediaPath: sql`coalesce(${messages.mediaPath}, ${row.mediaPath})`,
          mediaName: sql`coalesce(${messages.mediaName}, ${row.mediaName})`,
          quotedMsgId: sql`coalesce(${messages.quotedMsgId}, ${row.quotedMsgId})`,
          channelContent: sent.content ?? null,
          ack,
          updatedAt: new Date(),
        })
        .where(t.messages.where(eq(messages.id, echo.id)))
        .returning();
    } else {
      [done] = await tx
        .update(messages)
        .set({ channelId: sent.channelId, channelContent: sent.content ?? null, ack, ackError: null, updatedAt: new Date() })
        .where(t.messages.where(eq(messages.id, row.id)))
        .returning();
    }
    const [updated] = await tx
      .update(tickets)
      .set({ lastMessage, updatedAt: new Date() })
      .where(t.tickets.where(eq(tickets.id, ticket.id)))
      .returning();
    const created = await messageCreated(t, companyId, updated, done);
    await publish(created.event);
    return created.view;
  });
}

/** The new message (sent or failed) and its ticket, as told to everyone who may see the ticket. */
export async function messageCreated(
  t: Scoped,
  companyId: number,
  ticket: TicketRow,
  row: MessageRow,
): Promise<{ view: MessageView; event: DomainEvent<"message.created"> }> {
  const [messageView] = await presentMessages(t, [row]);
  const [{ view: ticketView, audience }] = await presentTicketsWithAudience(t, [ticket]);
  return {
    view: messageView,
    event: { type: "message.created", companyId, ticketId: ticket.id, message: messageView, ticket: ticketView, audience },
  };
}

/** messageCreated for a change already committed (one statement): told at once. */
export async function announceCommitted(s: Services, t: Scoped, companyId: number, ticket: TicketRow, row: MessageRow) {
  const { view, event } = await messageCreated(t, companyId, ticket, row);
  s.events.publish(event);
  return view;
}
