import { IdParams, PageQuery, SubscriptionForm } from "@charla/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { found } from "../../lib/app-error.js";
import { presentInvoice } from "./presenter.js";
import { findInvoice, pageInvoices } from "./queries.js";
import { checkout, scopeOf } from "./service.js";

/** `?paged=1` asks for `{invoices, hasMore}` instead of the bare array. */
const InvoicesQuery = PageQuery.extend({ paged: z.enum(["0", "1", "true", "false"]).optional() });

/**
 * Invoices and checkout (secondary §2 Billing, §7). A company's admin reads and pays their own
 * company's invoices, a super user every company's (invoices.read / invoices.pay: other profiles 403
 * before any query); another company's invoice is not found (404).
 */
export async function invoicesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * secondary §7: "response an array with hasMore": the page is the JSON array, and whether another
   * follows is the `x-has-more` header ("true"/"false"); `?paged=1` answers `{invoices, hasMore}`.
   */
  r.get(
    "/invoices/all",
    { schema: { querystring: InvoicesQuery }, config: { permission: "invoices.read" } },
    async (req, reply) => {
      const page = await pageInvoices(req.ctx.db, scopeOf(req.ctx), req.query.searchParam, req.query.pageNumber);
      reply.header("x-has-more", String(page.hasMore));
      const paged = req.query.paged === "1" || req.query.paged === "true";
      return paged ? page : page.invoices;
    },
  );

  r.get("/invoices/:id", { schema: { params: IdParams }, config: { permission: "invoices.read" } }, async (req) => {
    const row = found(await findInvoice(req.ctx.db, scopeOf(req.ctx), req.params.id), "ERR_INVOICE_NOT_FOUND");
    return presentInvoice(row.invoice, row.companyName);
  });

  r.post("/subscription", { schema: { body: SubscriptionForm }, config: { permission: "invoices.pay" } }, (req) =>
    checkout(req.ctx, req.body),
  );
}
