import { IdSchema, KanbanQuery, type KanbanLanes, type KanbanPage, type KanbanTicket } from "@charla/contracts";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { scoped, scopedFor } from "../../db/scoped.js";
import { tags, tickets, ticketTags } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { ticketChangeBroadcast } from "../tickets/broadcast.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer } from "../tickets/viewer.js";
import { boardQueues, isOnBoard, kanbanCard, kanbanLanes, laneIds, pageKanban } from "./queries.js";

const TicketParams = z.object({ ticketId: IdSchema });
const MoveParams = z.object({ ticketId: IdSchema, tagId: IdSchema });

/**
 * Puts a card in a lane: the ticket's kanban tags become exactly `lane` (none for "Abierto"). Its
 * other tags are labels the board does not show, so a drag leaves them alone. Only cards the user's
 * board holds can move (a ticket of another queue answers 404, as it is not on their board).
 */
function moveCard(ctx: RequestCtx, ticketId: number, lane: number | null): Promise<KanbanTicket> {
  return withTransaction(ctx.db, async (tx, afterCommit) => {
    const q = scoped(tx, ctx.companyId);
    const viewer = await loadViewer(q, ctx.user);
    const ticket = await visibleTicket(q, viewer, { id: ticketId });
    if (!isOnBoard(ticket.status, ticket.queueId, viewer)) throw new AppError("ERR_NO_TICKET_FOUND");
    if (lane !== null && (await laneIds(q, [lane])).length === 0) throw new AppError("ERR_NO_TAG_FOUND");
    await q.tickets.lockById(ticket.id);
    const lanes = q.db
      .select({ id: tags.id })
      .from(tags)
      .where(q.tags.where(eq(tags.kanban, 1)));
    await tx
      .delete(ticketTags)
      .where(q.ticketTags.where(and(eq(ticketTags.ticketId, ticket.id), inArray(ticketTags.tagId, lanes))));
    if (lane !== null) await tx.insert(ticketTags).values({ companyId: q.companyId, ticketId: ticket.id, tagId: lane });
    const [updated] = await tx
      .update(tickets)
      .set({ updatedAt: ticket.updatedAt })
      .where(q.tickets.where(eq(tickets.id, ticket.id)))
      .returning();
    const change = await ticketChangeBroadcast(ctx, q, ticket, updated);
    afterCommit(change.emit);
    return kanbanCard(change.view);
  });
}

/** Kanban (secondary §7), behind the plan flag useKanban (the permission carries it). */
export async function kanbanRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "kanban.use" } as const;

  r.get("/tags/kanban", { config: use }, async (req): Promise<KanbanLanes> => ({ lista: await kanbanLanes(scopedFor(req)) }));

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
