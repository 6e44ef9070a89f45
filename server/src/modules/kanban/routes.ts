import { IdSchema, KanbanQuery, type KanbanLanes, type KanbanPage, type KanbanTicket } from "@charla/contracts";
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { scopedFor } from "../../db/scoped.js";
import { tags, ticketTags } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { loadViewer } from "../tickets/viewer.js";
import { listKanbanTags } from "../tags/queries.js";
import { changeTicketTags } from "../tags/ticket-tags.js";
import { boardQueues, isOnBoard, kanbanCard, laneIds, pageKanban } from "./queries.js";

const TicketParams = z.object({ ticketId: IdSchema });
const MoveParams = z.object({ ticketId: IdSchema, tagId: IdSchema });

/**
 * Puts a card in a lane: the ticket's kanban tags become exactly `lane` (none for "Abierto"). Its
 * other tags are labels the board does not show, so a drag leaves them alone. Only cards the user's
 * board holds can move (a ticket of another queue answers 404, as it is not on their board).
 */
async function moveCard(ctx: RequestCtx, ticketId: number, lane: number | null): Promise<KanbanTicket> {
  const view = await changeTicketTags(ctx, ticketId, async (q, viewer, ticket) => {
    if (!isOnBoard(ticket.status, ticket.queueId, viewer)) throw new AppError("ERR_NO_TICKET_FOUND");
    if (lane !== null && (await laneIds(q, [lane])).length === 0) throw new AppError("ERR_NO_TAG_FOUND");
    const lanes = q.db
      .select({ id: tags.id })
      .from(tags)
      .where(q.tags.where(eq(tags.kanban, 1)));
    return { drop: inArray(ticketTags.tagId, lanes), add: lane === null ? [] : [lane] };
  });
  return kanbanCard(view);
}

/** Kanban (secondary §7), behind the plan flag useKanban (the permission carries it). */
export async function kanbanRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "kanban.use" } as const;

  r.get("/tags/kanban", { config: use }, async (req): Promise<KanbanLanes> => ({ lista: await listKanbanTags(scopedFor(req)) }));

  r.get("/ticket/kanban", { schema: { querystring: KanbanQuery }, config: use }, async (req): Promise<KanbanPage> => {
    const q = scopedFor(req);
    const viewer = await loadViewer(q, req.ctx.user);
    return pageKanban(q, viewer, boardQueues(viewer, req.query.queueIds), req.query.pageNumber);
  });

  r.delete("/ticket-tags/:ticketId", { schema: { params: TicketParams }, config: use }, (req) =>
    moveCard(req.ctx, req.params.ticketId, null),
  );

  r.put("/ticket-tags/:ticketId/:tagId", { schema: { params: MoveParams }, config: use }, (req) =>
    moveCard(req.ctx, req.params.ticketId, req.params.tagId),
  );
}
