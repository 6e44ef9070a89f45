import { type KanbanPage, type KanbanTicket, Limits, type TicketView } from "@charla/contracts";
import { type SQL, and, eq, inArray } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { Binds } from "../../db/shaped.js";
import { tags, tickets } from "../../db/schema/index.js";
import { visibleTickets } from "../../policies/tickets.js";
import { pageTicketViews } from "../tickets/presenter.js";
import type { Viewer } from "../tickets/viewer.js";

/** The board's statuses: a closed ticket has left the board (it comes back if reopened). */
const ON_BOARD = ["open", "pending"] as const;

/**
 * The queues a board shows (secondary §6: only the user's own queues, for every profile); `asked`
 * narrows them and never widens them.
 */
export function boardQueues(viewer: Viewer, asked: number[] | undefined): number[] {
  return asked ? viewer.queueIds.filter((id) => asked.includes(id)) : viewer.queueIds;
}

export function kanbanCard(view: TicketView): KanbanTicket {
  return {
    id: view.id,
    uuid: view.uuid,
    status: view.status,
    tags: view.tags,
    contact: { name: view.contact.name, number: view.contact.number },
    lastMessage: view.lastMessage,
    queue: view.queue,
    updatedAt: view.updatedAt,
  };
}

/** GET /ticket/kanban: newest activity first, through the same presenter and visibility rule as the inbox. */
export async function pageKanban(q: Scoped, viewer: Viewer, queueIds: number[], pageNumber: number): Promise<KanbanPage> {
  if (queueIds.length === 0) return { tickets: [], hasMore: false };
  const size = Limits.kanbanPageSize;
  const b = new Binds();
  b.mark("kanban");
  const where = and(
    eq(tickets.companyId, b.v("companyId", q.companyId)),
    b.anyOf(tickets.status, "statuses", [...ON_BOARD]),
    b.anyOf(tickets.queueId, "queueIds", queueIds),
    visibleTickets(viewer, b),
  ) as SQL;
  const views = await pageTicketViews(q, b, where, size + 1, (pageNumber - 1) * size);
  return { tickets: views.slice(0, size).map(kanbanCard), hasMore: views.length > size };
}

/** The company's tags among `ids` that are lanes. */
export async function laneIds(q: Scoped, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await q.db
    .select({ id: tags.id })
    .from(tags)
    .where(q.tags.where(and(inArray(tags.id, ids), eq(tags.kanban, 1))));
  return rows.map((r) => r.id);
}

export const isOnBoard = (status: string, queueId: number | null, viewer: Viewer) =>
  (ON_BOARD as readonly string[]).includes(status) && queueId !== null && viewer.queueIds.includes(queueId);
