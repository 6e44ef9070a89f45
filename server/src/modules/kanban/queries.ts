import { type KanbanPage, type KanbanTicket, Limits, type TicketView } from "@charla/contracts";
import { type SQL, and, eq, inArray } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { Binds } from "../../db/shaped.js";
import { tags, tickets } from "../../db/schema/index.js";
import { visibleTickets } from "../../policies/tickets.js";
import { pageTicketViews } from "../tickets/presenter.js";
import { isStaff, type Viewer } from "../tickets/viewer.js";

/** The board's statuses: a closed ticket has left the board (it comes back if reopened). */
const ON_BOARD = ["open", "pending"] as const;

/** Every queue, and tickets without one: the board of staff, who see every ticket (core §6). */
export const ALL_QUEUES = "all";
export type BoardQueues = number[] | typeof ALL_QUEUES;

/**
 * The queues a board shows: an agent's own queues (secondary §6); staff see every area's tickets, as
 * in the ticket list (core §6), so an admin without areas does not get an empty board. `asked`
 * narrows them and never widens them.
 */
export function boardQueues(viewer: Viewer, asked: number[] | undefined): BoardQueues {
  if (isStaff(viewer)) return asked ?? ALL_QUEUES;
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
export async function pageKanban(q: Scoped, viewer: Viewer, queueIds: BoardQueues, pageNumber: number): Promise<KanbanPage> {
  if (queueIds !== ALL_QUEUES && queueIds.length === 0) return { tickets: [], hasMore: false };
  const size = Limits.kanbanPageSize;
  const b = new Binds();
  b.mark("kanban");
  b.mark(queueIds === ALL_QUEUES ? "allQueues" : "queues");
  const where = and(
    eq(tickets.companyId, b.v("companyId", q.companyId)),
    b.anyOf(tickets.status, "statuses", [...ON_BOARD]),
    queueIds === ALL_QUEUES ? undefined : b.anyOf(tickets.queueId, "queueIds", queueIds),
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
  (ON_BOARD as readonly string[]).includes(status) &&
  (isStaff(viewer) || (queueId !== null && viewer.queueIds.includes(queueId)));
