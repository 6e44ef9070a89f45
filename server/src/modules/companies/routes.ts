import {
  CompanyBrandingForm,
  CompanyCreateForm,
  CompanySchedulesForm,
  CompanyUpdateForm,
  IdParams,
  IdSchema,
  PageQuery,
} from "@charla/contracts";
import { z } from "zod";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { companies } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { companyOfUploadHeader, removeLogo, storeLogo, updateBranding } from "./branding.js";
import { readCompanySchedules, updateCompanySchedules } from "./schedules.js";
import { createCompany, deleteCompany, listCompanies, readCompany, readCompanyWithSettings, updateCompany } from "./service.js";

const CompanyIdParams = z.object({ companyId: IdSchema });

export async function companiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get("/companies/list", { config: { permission: "companies.manage" } }, (req) => listCompanies(req.ctx.db));
  r.get("/companies", { schema: { querystring: PageQuery }, config: { permission: "companies.manage" } }, (req) =>
    listCompanies(req.ctx.db, req.query.searchParam, req.query.pageNumber),
  );
  r.post("/companies", { schema: { body: CompanyCreateForm }, config: { permission: "companies.manage" } }, async (req, reply) =>
    reply.status(201).send(await createCompany(req.ctx, req.body)),
  );
  r.get("/companies/:id", { schema: { params: IdParams }, config: { permission: "companies.read-own" } }, (req) =>
    readCompanyWithSettings(req.ctx, req.params.id),
  );
  /** secondary §7: the company with its plan; the caller's own for anyone, any company for super users. */
  r.get(
    "/companies/listPlan/:companyId",
    { schema: { params: CompanyIdParams }, config: { permission: "companies.read-own" } },
    (req) => readCompany(req.ctx, req.params.companyId),
  );
  r.put(
    "/companies/:id",
    { schema: { params: IdParams, body: CompanyUpdateForm }, config: { permission: "companies.manage" } },
    (req) => updateCompany(req.ctx, req.params.id, req.body),
  );
  r.delete("/companies/:id", { schema: { params: IdParams }, config: { permission: "companies.manage" } }, async (req, reply) => {
    await deleteCompany(req.ctx, req.params.id);
    return reply.status(204).send();
  });

  /** Working hours (Settings, Horarios tab): every user reads them, admins of the company (or super) change them. */
  r.get("/companies/:id/schedules", { schema: { params: IdParams }, config: { permission: "companies.read-own" } }, (req) =>
    readCompanySchedules(req.ctx, req.params.id),
  );
  r.put(
    "/companies/:id/schedules",
    { schema: { params: IdParams, body: CompanySchedulesForm }, config: { permission: "settings.write" } },
    (req) => updateCompanySchedules(req.ctx, req.params.id, req.body),
  );

  r.get(
    "/companies/:id/logo",
    { schema: { params: IdParams }, config: { permission: "companies.read-own" } },
    async (req, reply) => {
      const company = await readCompany(req.ctx, req.params.id);
      const [row] = await req.ctx.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, company.id));
      const data = row?.logo ? await req.ctx.storage.read(company.id, row.logo).catch(() => null) : null;
      if (!data) throw new AppError("ERR_NOT_FOUND");
      return reply.header("cache-control", "private, max-age=300").type("image/png").send(data);
    },
  );

  /** Branding (colours and page title) by the company's admin or a super user. */
  r.put(
    "/companies/:id/branding",
    { schema: { params: IdParams, body: CompanyBrandingForm }, config: { permission: "companies.read-own" } },
    (req) => updateBranding(req.ctx, req.params.id, req.body),
  );

  /** Company logo (core §5: PNG only, by its bytes), by a super user or the company's own admin. */
  r.post("/companies/:id/logo", { schema: { params: IdParams }, config: { permission: "companies.read-own" } }, (req) =>
    storeLogo(req, req.params.id, "logo"),
  );
  r.delete("/companies/:id/logo", { schema: { params: IdParams }, config: { permission: "companies.read-own" } }, (req) =>
    removeLogo(req.ctx, req.params.id),
  );
  /** The spec's upload of the logo (core §7): multipart `attachment` (or `file`), headers `name: company{id}` and `filename`. */
  r.post("/uploadfile", { config: { permission: "companies.read-own" } }, (req) =>
    storeLogo(req, companyOfUploadHeader(req.headers.name), ["attachment", "file"]),
  );
}
