import { z } from "zod";

export const JobStateNames = ["pending", "running", "done", "dead"] as const;
export type JobStateName = (typeof JobStateNames)[number];

/** GET /jobs: one state (default the dead ones, what an admin looks for), 20 a page, newest first. */
export const JobsQuery = z.object({
  state: z.enum(JobStateNames).optional().default("dead"),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type JobsQuery = z.input<typeof JobsQuery>;

/** One-off durable work of the company (docs/jobs.md), as an admin sees it. */
export type JobView = {
  id: number;
  kind: string;
  state: JobStateName;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAfter: string;
  createdAt: string;
  updatedAt: string;
};
export type JobsPage = { jobs: JobView[]; hasMore: boolean; count: number };
