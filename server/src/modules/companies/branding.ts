import { type CompanyBrandingForm, type CompanyView, LOGO_MAX_BYTES } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { companies } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isPng } from "../../lib/storage.js";
import { storeSingleFile } from "../../plugins/upload.js";
import { readCompany } from "./service.js";

/**
 * A company's branding (core §4 saving settings, §5 logo PNG): its own admins and super users; another
 * company's id answers 404 (readCompany) before a non-admin's 403, so ids of others reveal nothing.
 * No socket event: the company channel carries only working hours, and the web reloads after saving.
 */
async function brandable(ctx: RequestCtx, id: number): Promise<CompanyView> {
  const company = await readCompany(ctx, id);
  if (!ctx.user.super && ctx.user.profile !== "admin") throw new AppError("ERR_NO_PERMISSION");
  return company;
}

export async function updateBranding(
  ctx: RequestCtx,
  id: number,
  form: z.output<typeof CompanyBrandingForm>,
): Promise<CompanyView> {
  const company = await brandable(ctx, id);
  await ctx.db
    .update(companies)
    .set({ primaryColor: form.primaryColor, headerColor: form.headerColor, pageTitle: form.pageTitle, updatedAt: new Date() })
    .where(eq(companies.id, company.id));
  return readCompany(ctx, company.id);
}

/** Stores the request's PNG (checked by its bytes, at most LOGO_MAX_BYTES) as the company's logo. */
export async function storeLogo(req: FastifyRequest, id: number, fields: string | readonly string[]): Promise<CompanyView> {
  const company = await brandable(req.ctx, id);
  const { storage, db } = req.ctx;
  const stored = await storeSingleFile(req, fields, {
    storage,
    companyId: company.id,
    path: `logo-${Date.now()}.png`,
    maxBytes: Math.min(LOGO_MAX_BYTES, req.ctx.config.maxUploadBytes),
    looksRight: isPng,
  });
  const [before] = await db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, company.id));
  await db.update(companies).set({ logoPath: stored.path, updatedAt: new Date() }).where(eq(companies.id, company.id));
  if (before?.logo && before.logo !== stored.path) await storage.remove(company.id, before.logo);
  return readCompany(req.ctx, company.id);
}

export async function removeLogo(ctx: RequestCtx, id: number): Promise<CompanyView> {
  const company = await brandable(ctx, id);
  const [before] = await ctx.db.select({ logo: companies.logoPath }).from(companies).where(eq(companies.id, company.id));
  await ctx.db.update(companies).set({ logoPath: null, updatedAt: new Date() }).where(eq(companies.id, company.id));
  if (before?.logo) await ctx.storage.remove(company.id, before.logo);
  return readCompany(ctx, company.id);
}

/**
 * POST /uploadfile (core §7): the company comes in the header `name` as `company{id}`. Anything else
 * there is a malformed request.
 */
export function companyOfUploadHeader(header: unknown): number {
  const m = typeof header === "string" ? /^company([1-9]\d{0,9})$/.exec(header.trim()) : null;
  const id = m ? Number(m[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw new AppError("ERR_BAD_REQUEST");
  return id;
}
