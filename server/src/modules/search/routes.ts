import { SearchQuery, type SearchPage } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { scopedFor } from "../../db/scoped.js";
import { loadViewer } from "../tickets/viewer.js";
import { searchPage } from "./queries.js";

/** GET /search: the search tab's contacts and messages (core §2 Global search, §7). */
export async function searchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/search",
    { schema: { querystring: SearchQuery }, config: { permission: "tickets.use" } },
    async (req): Promise<SearchPage> => {
      const q = scopedFor(req);
      return searchPage(q, await loadViewer(q, req.ctx.user), req.query);
    },
  );
}
