import type { TagRef, TicketStatus, TicketView } from "@charla/contracts";
import { type SQL, and, desc, eq, inArray, sql } from "drizzle-orm";
import { literalCount } from "../../db/prepared.js";
import type { Scoped } from "../../db/scoped.js";
import { type Binds, shaped } from "../../db/shaped.js";
import { contacts, queues, tags, tickets, ticketTags, users, whatsapps } from "../../db/schema/index.js";

type TicketRow = typeof tickets.$inferSelect;

/**
 * A ticket's relations in the statement that reads it: contact, connection, queue and assignee by
 * join, tags as a JSON array from the ticket_tags primary key. One round trip for a page of 40.
 */
function selectWithRelations(q: Scoped, company: SQL | number = q.companyId) {
  const tagList = sql<TagRef[]>`coalesce((
    select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name}, ${tags.id})
    from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId} and ${tags.companyId} = ${company}
    where ${ticketTags.ticketId} = ${tickets.id} and ${ticketTags.companyId} = ${company}), '[]'::json)`;
  return q.db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      contactPicture: contacts.profilePicUrl,
      contactIsGroup: contacts.isGroup,
      whatsappName: whatsapps.name,
      queueName: queues.name,
      queueColor: queues.color,
      userName: users.name,
      tags: tagList,
    })
    .from(tickets)
    .leftJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, company)))
    .leftJoin(whatsapps, and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, company)))
    .leftJoin(queues, and(eq(queues.id, tickets.queueId), eq(queues.companyId, company)))
    .leftJoin(users, and(eq(users.id, tickets.userId), eq(users.companyId, company)));
}

type Joined = Awaited<ReturnType<ReturnType<typeof selectWithRelations>["execute"]>>[number];
/** The ticket's columns a view shows, and its relations' (null when the relation is gone). */
export type TicketFacts = Omit<TicketRow, "companyId" | BotStateColumn>;
/** The chatbot's memory of a ticket: never shown, so the inbound path need not read it back. */
type BotStateColumn = "queueOptionId" | "botListCount" | "botListAt" | "outOfHoursAt" | "awaitingRating" | "ratingAsks";
export type TicketRelations = Omit<Joined, "ticket">;

/** The one mapping from a ticket and its relations to its view (the inbound path uses it too). */
export function ticketViewFrom(t: TicketFacts, r: TicketRelations): TicketView {
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status as TicketStatus,
    contactId: t.contactId,
    contact: {
      id: t.contactId,
      name: r.contactName ?? "",
      number: r.contactNumber ?? "",
      profilePicUrl: r.contactPicture ?? "",
      isGroup: r.contactIsGroup ?? false,
    },
    whatsappId: t.whatsappId,
    whatsapp: t.whatsappId !== null && r.whatsappName !== null ? { id: t.whatsappId, name: r.whatsappName } : null,
    queueId: t.queueId,
    queue: t.queueId !== null && r.queueName !== null ? { id: t.queueId, name: r.queueName, color: r.queueColor ?? "" } : null,
    userId: t.userId,
    user: t.userId !== null && r.userName !== null ? { id: t.userId, name: r.userName } : null,
    tags: r.tags,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    useIntegration: t.useIntegration,
    promptId: t.promptId,
    integrationId: t.integrationId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

const toView = ({ ticket, ...relations }: Joined): TicketView => ticketViewFrom(ticket, relations);

/** A page of the list, newest activity first, presented in the same statement (shaped: `where`'s values are in `b`). */
export async function pageTicketViews(q: Scoped, b: Binds, where: SQL, limit: number, offset: number): Promise<TicketView[]> {
  const company = b.v("companyId", q.companyId);
  b.mark(`limit ${limit}`);
  b.mark(`offset ${offset}`);
  const rows = await shaped(q.db, "tickets.page", b, () =>
    selectWithRelations(q, company)
      .where(where)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(literalCount(limit))
      .offset(literalCount(offset)),
  );
  return rows.map(toView);
}

/** One ticket's row and its view, read together; null when none matches (shaped: `where`'s values are in `b`). */
export async function findTicketWithView(q: Scoped, b: Binds, where: SQL): Promise<{ row: TicketRow; view: TicketView } | null> {
  const company = b.v("companyId", q.companyId);
  const [joined] = await shaped(q.db, "tickets.one", b, () =>
    selectWithRelations(q, company).where(where).limit(literalCount(1)),
  );
  return joined ? { row: joined.ticket, view: toView(joined) } : null;
}

/**
 * Tickets already in hand with their relations: one statement, in the given order. The rows' own
 * columns are the caller's (what it just wrote), only the relations are read.
 */
export async function presentTickets(q: Scoped, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  const found = await selectWithRelations(q).where(
    q.tickets.where(
      inArray(
        tickets.id,
        rows.map((r) => r.id),
      ),
    ),
  );
  const byId = new Map(found.map((f) => [f.ticket.id, f]));
  return rows.map((row) => {
    const joined = byId.get(row.id);
    // a ticket deleted meanwhile still presents what the caller holds, without relations
    return toView(
      joined
        ? { ...joined, ticket: row }
        : {
            ticket: row,
            contactName: null,
            contactNumber: null,
            contactPicture: null,
            contactIsGroup: null,
            whatsappName: null,
            queueName: null,
            queueColor: null,
            userName: null,
            tags: [],
          },
    );
  });
}
