import { CompanyCreateForm, CompanySchedulesForm, CompanyUpdateForm, IdParams, PageQuery } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { companies } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isPng } from "../../lib/storage.js";
import { storeSingleFile } from "../../plugins/upload.js";
import { readCompanySchedules, updateCompanySchedules } from "./schedules.js";
import { createCompany, deleteCompany, listCompanies, readCompany, updateCompany } from "./service.js";

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
    readCompany(req.ctx, req.params.id),
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

  /** Company logo (core §5: PNG only), by a super user or the company's own admin. */
  r.post("/companies/:id/logo", { schema: { params: IdParams }, config: { permission: "companies.read-own" } }, async (req) => {
    const company = await readCompany(req.ctx, req.params.id);
    if (!req.ctx.user.super && req.ctx.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
    const { storage } = req.ctx;
    const stored = await storeSingleFile(req, "logo", {
      storage,
      companyId: company.id,
      path: `logo-${Date.now()}.png`,
      maxBytes: req.ctx.config.maxUploadBytes,
      looksRight: isPng,
    });
    const [before] = await req.ctx.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, company.id));
    await req.ctx.db.update(companies).set({ logoPath: stored.path, updatedAt: new Date() }).where(eq(companies.id, company.id));
    if (before?.logo && before.logo !== stored.path) await storage.remove(company.id, before.logo);
    return readCompany(req.ctx, company.id);
  });
}
