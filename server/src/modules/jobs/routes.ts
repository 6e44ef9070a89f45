import { IdParams, JobsQuery, type JobsPage } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { found } from "../../lib/app-error.js";
import { pageJobs, retryDeadJob } from "./queries.js";

/**
 * The company's one-off background work (docs/jobs.md), for its admins: what died after its last
 * attempt and why, and a way to run it again. Another company's job is not found.
 */
export async function jobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "jobs.manage" } as const;

  r.get(
    "/jobs",
    { schema: { querystring: JobsQuery }, config: use },
    (req): Promise<JobsPage> => pageJobs(scopedFor(req), req.query.state, req.query.pageNumber),
  );
  /** Only a dead job: a pending or running one is already on its way. */
  r.post("/jobs/:id/retry", { schema: { params: IdParams }, config: use }, async (req) =>
    found(await retryDeadJob(scopedFor(req), req.params.id), "ERR_NOT_FOUND"),
  );
}
