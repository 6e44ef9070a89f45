import { DashboardClosedQuery, DashboardFilter, TicketsPerHourQuery } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { pageClosedTickets } from "./closed.js";
import { resolveDay, resolvePeriod } from "./period.js";
import { dashboardView, ticketsPerHour } from "./queries.js";

/** core §2, §7 Dashboard: admin and subadmin (rule dashboard:view), always the caller's company. */
export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = { permission: "dashboard:view" } as const;

  r.get("/dashboard", { schema: { querystring: DashboardFilter }, config: view }, async (req) => {
    const q = scopedFor(req);
    return dashboardView(q, await resolvePeriod(q, req.query));
  });
  r.get("/dashboard/tickets-per-hour", { schema: { querystring: TicketsPerHourQuery }, config: view }, async (req) => {
    const q = scopedFor(req);
    return ticketsPerHour(q, await resolveDay(q, req.query.date));
  });
  r.get("/dashboard/closed-tickets", { schema: { querystring: DashboardClosedQuery }, config: view }, async (req) => {
    const q = scopedFor(req);
    return pageClosedTickets(q, await resolvePeriod(q, req.query), req.query.pageNumber);
  });
}
