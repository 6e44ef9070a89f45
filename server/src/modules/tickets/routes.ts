import { IdParams, Limits, TicketCreateForm, TicketListQuery, TicketUpdateForm, type ClosedTicketsPage } from "@charla/contracts";
import { and, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { toCount } from "../../db/client.js";
import { scopedFor } from "../../db/scoped.js";
import { tickets, ticketTracking, users } from "../../db/schema/index.js";
import { presentTickets } from "./presenter.js";
import { pageTickets, visibleTicketWithView } from "./queries.js";
import { createTicket, deleteTicket, updateTicket } from "./service.js";
import { isStaff, loadViewer } from "./viewer.js";

const UuidParams = z.object({ uuid: z.uuid() });
const ClosedQuery = z.object({ pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1) });

const tenant = scopedFor;

export async function ticketsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tickets.use" } as const;

  r.get("/tickets", { schema: { querystring: TicketListQuery }, config: use }, async (req) => {
    const q = tenant(req);
    return pageTickets(q, await loadViewer(q, req.ctx.user), req.query);
  });
  r.get("/tickets/u/:uuid", { schema: { params: UuidParams }, config: use }, async (req) => {
    const q = tenant(req);
    return (await visibleTicketWithView(q, await loadViewer(q, req.ctx.user), { uuid: req.params.uuid })).view;
  });
  r.get("/tickets/:id", { schema: { params: IdParams }, config: use }, async (req) => {
    const q = tenant(req);
    return (await visibleTicketWithView(q, await loadViewer(q, req.ctx.user), { id: req.params.id })).view;
  });
  r.post("/tickets", { schema: { body: TicketCreateForm }, config: use }, async (req, reply) =>
    reply.status(201).send(await createTicket(req.ctx, req.body)),
  );
  r.put("/tickets/:id", { schema: { params: IdParams, body: TicketUpdateForm }, config: use }, (req) =>
    updateTicket(req.ctx, req.params.id, req.body),
  );
  r.delete("/tickets/:id", { schema: { params: IdParams }, config: { permission: "tickets.delete" } }, async (req, reply) => {
    await deleteTicket(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Finished episodes, newest first: staff see all, agents those they closed. */
  r.get("/closedTickets", { schema: { querystring: ClosedQuery }, config: use }, async (req): Promise<ClosedTicketsPage> => {
    const q = tenant(req);
    const viewer = await loadViewer(q, req.ctx.user);
    const where = q.ticketTracking.where(
      isNotNull(ticketTracking.finishedAt),
      isStaff(viewer) ? undefined : eq(ticketTracking.userId, viewer.id),
    );
    const size = Limits.pageSize;
    const offset = (req.query.pageNumber - 1) * size;
    const rows = await q.db
      .select({
        id: ticketTracking.id,
        ticketId: ticketTracking.ticketId,
        userId: ticketTracking.userId,
        finishedAt: ticketTracking.finishedAt,
        userName: users.name,
      })
      .from(ticketTracking)
      .leftJoin(users, and(eq(users.id, ticketTracking.userId), eq(users.companyId, q.companyId)))
      .where(where)
      .orderBy(desc(ticketTracking.finishedAt), desc(ticketTracking.id))
      .limit(size)
      .offset(offset);
    const [{ n }] = await q.db.select({ n: count() }).from(ticketTracking).where(where);
    const ticketRows = rows.length
      ? await q.db
          .select()
          .from(tickets)
          .where(
            q.tickets.where(
              inArray(
                tickets.id,
                rows.map((r) => r.ticketId),
              ),
            ),
          )
      : [];
    const views = new Map((await presentTickets(q, ticketRows)).map((t) => [t.id, t]));
    return {
      tickets: rows.flatMap((r) => {
        const ticket = views.get(r.ticketId);
        if (!ticket || !r.finishedAt) return [];
        return [
          {
            id: r.id,
            finishedAt: r.finishedAt.toISOString(),
            ticket,
            user: r.userId ? { id: r.userId, name: r.userName ?? "" } : null,
          },
        ];
      }),
      hasMore: toCount(n) > offset + rows.length,
    };
  });
}
