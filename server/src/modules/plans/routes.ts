import { IdParams, PlanForm, type PlanView } from "@charla/contracts";
import { asc, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { toCount } from "../../db/client.js";
import { companies, plans } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";

export function presentPlan(p: typeof plans.$inferSelect): PlanView {
  return {
    id: p.id,
    name: p.name,
    users: p.users,
    connections: p.connections,
    queues: p.queues,
    value: p.value,
    useCampaigns: p.useCampaigns,
    useSchedules: p.useSchedules,
    useInternalChat: p.useInternalChat,
    useExternalApi: p.useExternalApi,
    useKanban: p.useKanban,
    useOpenAi: p.useOpenAi,
    useIntegrations: p.useIntegrations,
  };
}

const toRow = (f: ReturnType<typeof PlanForm.parse>) => ({ ...f, value: f.value.replace(",", ".") });
const nameTaken = (err: unknown): never => {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_PLAN_NAME_EXISTS");
  throw err;
};

/** Plans are platform data: listed publicly (signup), managed by super users only. */
export async function plansRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const all = async () => (await app.charla.db.select().from(plans).orderBy(asc(plans.id))).map(presentPlan);

  r.get("/plans/list", { config: { public: true } }, all);
  r.get("/plans", { config: { permission: "plans.manage" } }, all);
  r.get("/plans/all", { config: { permission: "plans.manage" } }, all);

  r.get("/plans/:id", { schema: { params: IdParams }, config: { permission: "plans.manage" } }, async (req) => {
    const [row] = await app.charla.db.select().from(plans).where(eq(plans.id, req.params.id));
    return presentPlan(found(row, "ERR_NO_PLAN_FOUND"));
  });

  r.post("/plans", { schema: { body: PlanForm }, config: { permission: "plans.manage" } }, async (req, reply) => {
    const [row] = await app.charla.db.insert(plans).values(toRow(req.body)).returning().catch(nameTaken);
    return reply.status(201).send(presentPlan(row));
  });

  r.put("/plans/:id", { schema: { params: IdParams, body: PlanForm }, config: { permission: "plans.manage" } }, async (req) => {
    const [row] = await app.charla.db
      .update(plans)
      .set({ ...toRow(req.body), updatedAt: new Date() })
      .where(eq(plans.id, req.params.id))
      .returning()
      .catch(nameTaken);
    return presentPlan(found(row, "ERR_NO_PLAN_FOUND"));
  });

  r.delete("/plans/:id", { schema: { params: IdParams }, config: { permission: "plans.manage" } }, async (req, reply) => {
    const db = app.charla.db;
    const [{ n }] = await db.select({ n: count() }).from(companies).where(eq(companies.planId, req.params.id));
    if (toCount(n) > 0) throw new AppError("ERR_PLAN_IN_USE");
    const gone = await db.delete(plans).where(eq(plans.id, req.params.id)).returning({ id: plans.id });
    found(gone[0], "ERR_NO_PLAN_FOUND");
    return reply.status(204).send();
  });
}
