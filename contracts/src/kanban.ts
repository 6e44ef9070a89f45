import { z } from "zod";
import type { TagRef, TagView, TicketStatus } from "./tickets.js";
import { IdListParam } from "./tickets.js";

/**
 * Kanban (secondary §2, §5, §7): a board of the open and pending tickets of the user's own queues,
 * one lane for tickets without a kanban tag ("Abierto") and one per tag marked kanban.
 */
export type KanbanTicket = {
  id: number;
  uuid: string;
  status: TicketStatus;
  tags: TagRef[];
  contact: { name: string; number: string };
  lastMessage: string;
  queue: { id: number; name: string; color: string } | null;
  updatedAt: string;
};

/** GET /ticket/kanban: queueIds as a JSON array (narrows the user's own queues), 100 a page. */
export const KanbanQuery = z.object({
  queueIds: IdListParam,
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});
export type KanbanQuery = z.input<typeof KanbanQuery>;

export type KanbanPage = { tickets: KanbanTicket[]; hasMore: boolean };

/** GET /tags/kanban: the lanes after "Abierto", in name order. */
export type KanbanLanes = { lista: TagView[] };
