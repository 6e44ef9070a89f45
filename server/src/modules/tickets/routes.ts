import { IdParams, TicketCreateForm, TicketListQuery, TicketUpdateForm, type ClosedTicketsPage } from "@charla/contracts";
import { and, eq, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { scopedFor } from "../../db/scoped.js";
import { ticketTracking } from "../../db/schema/index.js";
import { pageFinishedEpisodes } from "./finished-episodes.js";
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
    return pageFinishedEpisodes(
      q,
      and(isNotNull(ticketTracking.finishedAt), isStaff(viewer) ? undefined : eq(ticketTracking.userId, viewer.id)),
      req.query.pageNumber,
    );
  });
}
