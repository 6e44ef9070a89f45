import type { TagRef, TicketStatus, TicketView } from "@charla/contracts";
import { type SQL, type SQLWrapper, and, desc, eq, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { literalCount } from "../../db/prepared.js";
import type { Scoped } from "../../db/scoped.js";
import { Binds, shaped, shapedArrays } from "../../db/shaped.js";
import { contacts, queues, tags, tickets, ticketTags, users, whatsapps } from "../../db/schema/index.js";
import { type AudienceCandidate, audienceCandidates, audienceFrom, ticketAudience } from "../../policies/tickets.js";

type TicketRow = typeof tickets.$inferSelect;

/** A ticket's tags as a JSON array, from the ticket_tags primary key. */
function tagListOf(company: SQL | number) {
  return sql<TagRef[]>`coalesce((
    select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name}, ${tags.id})
    from ${ticketTags} join ${tags} on ${tags.id} = ${ticketTags.tagId} and ${tags.companyId} = ${company}
    where ${ticketTags.ticketId} = ${tickets.id} and ${ticketTags.companyId} = ${company}), '[]'::json)`;
}

/** How every presentation of tickets joins their relations, each checked to be the company's. */
function relationsOn(company: SQL | number) {
  return {
    contact: and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, company)),
    whatsapp: and(eq(whatsapps.id, tickets.whatsappId), eq(whatsapps.companyId, company)),
    queue: and(eq(queues.id, tickets.queueId), eq(queues.companyId, company)),
    user: and(eq(users.id, tickets.userId), eq(users.companyId, company)),
  };
}

/** The relations' columns every presentation reads, in this order (viewOfRow reads them by position). */
function relationColumns(company: SQL | number) {
  return {
    contactName: contacts.name,
    contactNumber: contacts.number,
    contactPicture: contacts.profilePicUrl,
    contactIsGroup: contacts.isGroup,
    whatsappName: whatsapps.name,
    queueName: queues.name,
    queueColor: queues.color,
    userName: users.name,
    tags: tagListOf(company),
  };
}

/**
 * Tickets with `fields` and their relations in the statement that reads them: contact, connection,
 * queue and assignee by join, tags as a JSON array. One round trip for any number of tickets.
 */
function selectTicketsWith<F extends SelectedFields>(q: Scoped, company: SQL | number, fields: F) {
  const on = relationsOn(company);
  return q.db
    .select({ ...fields, ...relationColumns(company) })
    .from(tickets)
    .leftJoin(contacts, on.contact)
    .leftJoin(whatsapps, on.whatsapp)
    .leftJoin(queues, on.queue)
    .leftJoin(users, on.user);
}

/** Every column of the ticket and its relations; with its audience's candidates for live events. */
function selectWithRelations(q: Scoped, company: SQL | number = q.companyId, withAudience = false) {
  return selectTicketsWith(q, company, {
    // who may see it (policies/tickets.ts), only for live events: a list does not need it
    candidates: withAudience ? audienceCandidates(company) : sql<AudienceCandidate[] | null>`null`,
    ticket: tickets,
  });
}

type Joined = Awaited<ReturnType<ReturnType<typeof selectWithRelations>["execute"]>>[number];
/** The ticket's columns a view shows, and its relations' (null when the relation is gone). */
export type TicketFacts = Omit<TicketRow, "companyId" | BotStateColumn>;
/** The chatbot's memory of a ticket: never shown, so the inbound path need not read it back. */
type BotStateColumn =
  | "queueOptionId"
  | "botListCount"
  | "botListAt"
  | "outOfHoursAt"
  | "awaitingRating"
  | "ratingAsks"
  | "botAnsweredMessageId"
  | "startedByCompany"
  | "automationDone";
export type TicketRelations = Omit<Joined, "ticket" | "candidates">;

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

const toView = ({ ticket, candidates: _, ...relations }: Joined): TicketView => ticketViewFrom(ticket, relations);

/**
 * A timestamp as milliseconds since the epoch, a number the driver reads without parsing a date.
 * date_part is a double (extract's numeric costs PostgreSQL more than the whole join): read with dateOfMs.
 */
const epochMs = (column: SQLWrapper) => sql<number>`date_part('epoch', ${column}) * 1000`;
/** The double's error is under 0.0003 ms; a timestamp's microseconds never reach .9995 ms after the guard. */
const dateOfMs = (ms: number) => new Date(Math.floor(ms + 0.0005));

/**
 * A page of the list, newest activity first, presented in the same statement (shaped: `where`'s values
 * are in `b`). Only the view's columns are read, as arrays mapped here: the general path (every column
 * of the ticket, mapped cell by cell, dates parsed) was a fifth of the server's time on the open list.
 */
export async function pageTicketViews(q: Scoped, b: Binds, where: SQL, limit: number, offset: number): Promise<TicketView[]> {
  const company = b.v("companyId", q.companyId);
  b.mark(`limit ${limit}`);
  b.mark(`offset ${offset}`);
  const rows = await shapedArrays(q.db, "tickets.pageRows", b, () =>
    selectTicketsWith(q, company, {
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      contactId: tickets.contactId,
      whatsappId: tickets.whatsappId,
      queueId: tickets.queueId,
      userId: tickets.userId,
      lastMessage: tickets.lastMessage,
      unreadMessages: tickets.unreadMessages,
      isGroup: tickets.isGroup,
      chatbot: tickets.chatbot,
      useIntegration: tickets.useIntegration,
      promptId: tickets.promptId,
      integrationId: tickets.integrationId,
      createdAt: epochMs(tickets.createdAt),
      updatedAt: epochMs(tickets.updatedAt),
    })
      .where(where)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(literalCount(limit))
      .offset(literalCount(offset)),
  );
  return rows.map(viewOfRow);
}

/** pageTicketViews' row, in its selection's order. */
function viewOfRow(r: unknown[]): TicketView {
  return ticketViewFrom(
    {
      id: r[0] as number,
      uuid: r[1] as string,
      status: r[2] as string,
      contactId: r[3] as number,
      whatsappId: r[4] as number | null,
      queueId: r[5] as number | null,
      userId: r[6] as number | null,
      lastMessage: r[7] as string,
      unreadMessages: r[8] as number,
      isGroup: r[9] as boolean,
      chatbot: r[10] as boolean,
      useIntegration: r[11] as boolean,
      promptId: r[12] as number | null,
      integrationId: r[13] as number | null,
      createdAt: dateOfMs(r[14] as number),
      updatedAt: dateOfMs(r[15] as number),
    },
    {
      contactName: r[16] as string | null,
      contactNumber: r[17] as string | null,
      contactPicture: r[18] as string | null,
      contactIsGroup: r[19] as boolean | null,
      whatsappName: r[20] as string | null,
      queueName: r[21] as string | null,
      queueColor: r[22] as string | null,
      userName: r[23] as string | null,
      tags: r[24] as TagRef[],
    },
  );
}

/** One ticket's row and its view, read together; null when none matches (shaped: `where`'s values are in `b`). */
export async function findTicketWithView(q: Scoped, b: Binds, where: SQL): Promise<{ row: TicketRow; view: TicketView } | null> {
  const company = b.v("companyId", q.companyId);
  const [joined] = await shaped(q.db, "tickets.one", b, () =>
    selectWithRelations(q, company).where(where).limit(literalCount(1)),
  );
  return joined ? { row: joined.ticket, view: toView(joined) } : null;
}

/** Tickets by id with their relations (and audience candidates): a shaped statement, built once per process. */
function relationsByIds(q: Scoped, ids: number[], withAudience: boolean) {
  const b = new Binds();
  const company = b.v("companyId", q.companyId);
  b.mark(withAudience ? "audience" : "relations");
  // one id (nearly every call) as `=`: PostgreSQL estimates `= any($array)` at ten rows, so the generic
  // plan of that shape looks costlier than planning each call, and it was planned every time (0.9 ms
  // planning for 0.1 ms of execution); `= $id` keeps its generic plan
  const byId = ids.length === 1 ? eq(tickets.id, b.v("id", ids[0])) : b.anyOf(tickets.id, "ids", ids);
  const where = and(eq(tickets.companyId, company), byId) as SQL;
  return shaped(q.db, "tickets.byIds", b, () => selectWithRelations(q, company, withAudience).where(where));
}

/**
 * Tickets already in hand with their relations: one statement, in the given order. The rows' own
 * columns are the caller's (what it just wrote), only the relations are read.
 */
export async function presentTickets(q: Scoped, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  const found = await relationsByIds(
    q,
    rows.map((r) => r.id),
    false,
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
            candidates: null,
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

/**
 * presentTickets with each ticket's audience (policies/tickets.ts) read in the same statement: what a
 * live event needs, in one round trip. A ticket whose stored placement is not the caller's (changed
 * meanwhile, or deleted) has its audience read apart, for the caller's facts.
 */
export async function presentTicketsWithAudience(
  q: Scoped,
  rows: TicketRow[],
): Promise<{ view: TicketView; audience: number[] }[]> {
  if (rows.length === 0) return [];
  const found = await relationsByIds(
    q,
    rows.map((r) => r.id),
    true,
  );
  const byId = new Map(found.map((f) => [f.ticket.id, f]));
  return Promise.all(
    rows.map(async (row) => {
      const joined = byId.get(row.id);
      if (!joined) return { view: (await presentTickets(q, [row]))[0], audience: await ticketAudience(q, row) };
      const { candidates, ticket: stored, ...relations } = joined;
      const view = ticketViewFrom(row, relations);
      const samePlace =
        stored.queueId === row.queueId &&
        stored.userId === row.userId &&
        stored.status === row.status &&
        stored.chatbot === row.chatbot &&
        stored.whatsappId === row.whatsappId;
      return { view, audience: samePlace ? audienceFrom(candidates ?? [], row) : await ticketAudience(q, row) };
    }),
  );
}

/** Tickets read by id with their views and audiences, for the live events of a change to something in them (an ack). */
export async function ticketsForEvents(
  q: Scoped,
  ids: number[],
): Promise<Map<number, { row: TicketRow; view: TicketView; audience: number[] }>> {
  if (ids.length === 0) return new Map();
  const found = await relationsByIds(q, ids, true);
  return new Map(
    found.map((joined) => [
      joined.ticket.id,
      { row: joined.ticket, view: toView(joined), audience: audienceFrom(joined.candidates ?? [], joined.ticket) },
    ]),
  );
}
