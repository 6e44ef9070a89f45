import { Limits, type MessagesPage } from "@charla/contracts";
import { type SQL, and, count, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { RequestCtx } from "../../context.js";
import { toCount } from "../../db/client.js";
import { literalCount } from "../../db/prepared.js";
import type { Scoped } from "../../db/scoped.js";
import { Binds, shaped } from "../../db/shaped.js";
import { messages, tickets } from "../../db/schema/index.js";
import { visibleTickets } from "../../policies/tickets.js";
import { visibleTicketWithView } from "../tickets/queries.js";
import type { Viewer } from "../tickets/viewer.js";
import { presentMessage } from "./presenter.js";
import { markTicketRead } from "./read.js";

const quoted = alias(messages, "quoted");

/**
 * A page of a ticket's conversation: page 1 holds the newest 20, page 2 the 20 before them, and so on;
 * within a page oldest first, as the family's clients read it (core §7). The ticket and its view in one
 * statement, then the page (quotes joined) and its count side by side. Opening page 1 reads the
 * ticket, which writes only when something was unread.
 */
export async function messagesPage(
  ctx: RequestCtx,
  q: Scoped,
  viewer: Viewer,
  ticketId: number,
  page: { pageNumber: number; peek: boolean },
): Promise<MessagesPage> {
  const { row: ticket, view } = await visibleTicketWithView(q, viewer, { id: ticketId });
  const size = Limits.messagesPageSize;
  const offset = (page.pageNumber - 1) * size;
  // the contact's earlier conversations on this connection come along, so the history reads as one
  // thread with "conversation closed / started" markers where the ticket changes (core §2)
  const line = (b: Binds) => {
    const company = b.v("companyId", q.companyId);
    const sameConversationLine = sql`select ${tickets.id} from ${tickets} where ${and(
      eq(tickets.companyId, company),
      eq(tickets.contactId, b.v("contactId", ticket.contactId)),
      ticket.whatsappId === null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, b.v("whatsappId", ticket.whatsappId)),
      // ids, not timestamps: the row's microseconds are lost in a JS Date, ids keep their order
      lte(tickets.id, b.v("ticketId", ticket.id)),
      // only conversations the viewer may see (core §6): an agent does not read another area's history
      visibleTickets(viewer, b),
    )}`;
    return and(eq(messages.companyId, company), sql`${messages.ticketId} in (${sameConversationLine})`) as SQL;
  };
  const pageBinds = new Binds();
  const pageWhere = line(pageBinds);
  const company = pageBinds.v("companyId", q.companyId);
  pageBinds.mark(`limit ${size}`);
  pageBinds.mark(`offset ${offset}`);
  const countBinds = new Binds();
  const countWhere = line(countBinds);
  const [rows, [{ n }]] = await Promise.all([
    shaped(q.db, "messages.page", pageBinds, () =>
      q.db
        .select({
          m: {
            id: messages.id,
            companyId: messages.companyId,
            ticketId: messages.ticketId,
            contactId: messages.contactId,
            body: messages.body,
            fromMe: messages.fromMe,
            read: messages.read,
            ack: messages.ack,
            ackError: messages.ackError,
            mediaType: messages.mediaType,
            mediaPath: messages.mediaPath,
            mediaName: messages.mediaName,
            quotedMsgId: messages.quotedMsgId,
            isDeleted: messages.isDeleted,
            isEdited: messages.isEdited,
            participantName: messages.participantName,
            isAutomatic: messages.isAutomatic,
            createdAt: messages.createdAt,
            updatedAt: messages.updatedAt,
          },
          quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType },
        })
        .from(messages)
        .leftJoin(quoted, and(eq(quoted.id, messages.quotedMsgId), eq(quoted.companyId, company)))
        .where(pageWhere)
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(literalCount(size))
        .offset(literalCount(offset)),
    ),
    shaped(q.db, "messages.count", countBinds, () => q.db.select({ n: count() }).from(messages).where(countWhere)),
  ]);
  let ticketView = view;
  if (page.pageNumber === 1 && !page.peek && ticket.unreadMessages > 0) {
    const read = await markTicketRead(ctx, ticket);
    ticketView = { ...view, unreadMessages: read.unreadMessages };
  }
  const total = toCount(n);
  return {
    // read newest first so the offset counts back from the latest, then handed over oldest first
    messages: rows.map((r) => presentMessage(r.m, r.quoted)).reverse(),
    ticket: ticketView,
    count: total,
    hasMore: total > offset + rows.length,
  };
}
