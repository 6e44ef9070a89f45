import type { TicketStatus, TicketView } from "@charla/contracts";
import { eq, inArray } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { contacts, queues, tags, type tickets, ticketTags, users, whatsapps } from "../../db/schema/index.js";
import { gather } from "../../db/gather.js";

type TicketRow = typeof tickets.$inferSelect;

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];

/** Tickets with their contact, connection, queue, user and tags: one query per relation, not per ticket. */
export async function presentTickets(q: Scoped, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  const [cs, ws, qs, us, ts] = await gather(q.db, [
    () =>
      q.db
        .select({
          id: contacts.id,
          name: contacts.name,
          number: contacts.number,
          profilePicUrl: contacts.profilePicUrl,
          isGroup: contacts.isGroup,
        })
        .from(contacts)
        .where(q.contacts.where(inArray(contacts.id, ids(rows.map((r) => r.contactId))))),
    () => load(q, whatsapps, ids(rows.map((r) => r.whatsappId)), { id: whatsapps.id, name: whatsapps.name }),
    () => load(q, queues, ids(rows.map((r) => r.queueId)), { id: queues.id, name: queues.name, color: queues.color }),
    () => load(q, users, ids(rows.map((r) => r.userId)), { id: users.id, name: users.name }),
    () =>
      q.db
        .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
        .from(ticketTags)
        .innerJoin(tags, eq(tags.id, ticketTags.tagId))
        .where(
          q.ticketTags.where(
            inArray(
              ticketTags.ticketId,
              rows.map((r) => r.id),
            ),
          ),
        ),
  ]);
  const [cMap, wMap, qMap, uMap] = [byId(cs), byId(ws), byId(qs), byId(us)];
  return rows.map((t) => ({
    id: t.id,
    uuid: t.uuid,
    status: t.status as TicketStatus,
    contactId: t.contactId,
    contact: cMap.get(t.contactId) ?? { id: t.contactId, name: "", number: "", profilePicUrl: "", isGroup: false },
    whatsappId: t.whatsappId,
    whatsapp: (t.whatsappId && wMap.get(t.whatsappId)) || null,
    queueId: t.queueId,
    queue: (t.queueId && qMap.get(t.queueId)) || null,
    userId: t.userId,
    user: (t.userId && uMap.get(t.userId)) || null,
    tags: ts.filter((x) => x.ticketId === t.id).map(({ id, name, color }) => ({ id, name, color })),
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    useIntegration: t.useIntegration,
    promptId: t.promptId,
    integrationId: t.integrationId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  }));
}

type Named = typeof whatsapps | typeof queues | typeof users;

async function load<S extends Record<string, unknown>>(q: Scoped, table: Named, list: number[], shape: S) {
  if (list.length === 0) return [] as { id: number; name: string; color: string }[];
  const where = table === whatsapps ? q.whatsapps.where : table === queues ? q.queues.where : q.users.where;
  const rows = await q.db
    .select(shape as never)
    .from(table)
    .where(where(inArray(table.id, list)));
  return rows as unknown as { id: number; name: string; color: string }[];
}
