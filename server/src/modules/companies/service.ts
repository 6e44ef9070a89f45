import type { CompanyCreateForm, CompanyUpdateForm, CompanyView } from "@charla/contracts";
import { and, asc, count, eq, ilike } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx, Services } from "../../context.js";
import type { Db, Tx } from "../../db/client.js";
import { toCount } from "../../db/client.js";
import { companies, plans, users } from "../../db/schema/index.js";
import { seedCompanySettings } from "../../db/seed.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { escapeLike } from "../../lib/like.js";
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from "../../lib/pg-errors.js";
import { companyUsable } from "../../policies/company.js";
import { hashPassword } from "../auth/service.js";
import { presentCompany } from "./presenter.js";

type CreateInput = z.output<typeof CompanyCreateForm>;
type UpdateInput = z.output<typeof CompanyUpdateForm>;

const MAIN_COMPANY_ID = 1;

function mapUnique(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) {
    throw new AppError(pgConstraint(err) === "users_email_key" ? "ERR_EMAIL_ALREADY_EXISTS" : "ERR_COMPANY_NAME_EXISTS");
  }
  throw err;
}

async function assertPlan(db: Db | Tx, planId: number | undefined) {
  if (planId === undefined) return;
  const [p] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  found(p, "ERR_NO_PLAN_FOUND");
}

export async function findCompany(db: Db | Tx, id: number): Promise<CompanyView | null> {
  const [row] = await db
    .select({ c: companies, p: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, id));
  return row ? presentCompany(row.c, row.p) : null;
}

/** A company reads itself; super users read any. Others' ids answer 404 like missing ones. */
export async function readCompany(ctx: RequestCtx, id: number): Promise<CompanyView> {
  if (id !== ctx.companyId && !ctx.user.super) throw new AppError("ERR_NO_COMPANY_FOUND");
  return found(await findCompany(ctx.db, id), "ERR_NO_COMPANY_FOUND");
}

export async function listCompanies(db: Db, search = "", pageNumber?: number) {
  const where = search ? ilike(companies.name, `%${escapeLike(search)}%`) : undefined;
  const q = db
    .select({ c: companies, p: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(where)
    .orderBy(asc(companies.id));
  if (!pageNumber) return (await q).map((r) => presentCompany(r.c, r.p));
  const rows = await q.limit(20).offset((pageNumber - 1) * 20);
  const [{ n }] = await db.select({ n: count() }).from(companies).where(where);
  const total = toCount(n);
  return {
    companies: rows.map((r) => presentCompany(r.c, r.p)),
    count: total,
    hasMore: total > (pageNumber - 1) * 20 + rows.length,
  };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Creates a company with every setting at its default and its first admin user. */
export async function createCompany(s: Pick<Services, "db">, input: CreateInput): Promise<CompanyView> {
  await assertPlan(s.db, input.planId);
  const passwordHash = await hashPassword(input.password);
  return withTransaction(s.db, async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone ?? "",
        planId: input.planId,
        status: input.status ?? true,
        dueDate: input.dueDate ?? inDays(30),
        recurrence: input.recurrence ?? "MENSAL",
        primaryColor: input.primaryColor,
        headerColor: input.headerColor,
        pageTitle: input.pageTitle ?? "",
        phoneNotification: input.phoneNotification ?? "",
      })
      .returning()
      .catch(mapUnique);
    await seedCompanySettings(tx, company.id);
    await tx
      .insert(users)
      .values({ companyId: company.id, name: input.adminName ?? "Admin", email: input.email, passwordHash, profile: "admin" })
      .catch(mapUnique);
    return found(await findCompany(tx, company.id), "ERR_NO_COMPANY_FOUND");
  });
}

export async function updateCompany(s: Pick<Services, "db" | "events">, id: number, input: UpdateInput): Promise<CompanyView> {
  await assertPlan(s.db, input.planId);
  const [row] = await s.db
    .update(companies)
    .set({ ...input, email: input.email ?? undefined, updatedAt: new Date() })
    .where(eq(companies.id, id))
    .returning()
    .catch(mapUnique);
  found(row, "ERR_NO_COMPANY_FOUND");
  // deactivated or past its due date: its open sockets stop receiving anything now (they cannot reconnect)
  if (!companyUsable(row)) {
    s.events.publish({ type: "company.blocked", companyId: id, keepUserIds: await superUserIds(s.db, id), reason: "unusable" });
  }
  return found(await findCompany(s.db, id), "ERR_NO_COMPANY_FOUND");
}

/** Super users are never locked out of a company (core §6), so their sockets stay. */
async function superUserIds(db: Db, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.super, true)));
  return rows.map((r) => r.id);
}

/** Deletes a company and, by cascade, all of its rows and files. The main company stays. */
export async function deleteCompany(ctx: RequestCtx, id: number): Promise<void> {
  if (id === MAIN_COMPANY_ID || id === ctx.companyId) throw new AppError("ERR_MAIN_COMPANY");
  const gone = await ctx.db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  found(gone[0], "ERR_NO_COMPANY_FOUND");
  ctx.events.publish({ type: "company.blocked", companyId: id, keepUserIds: [], reason: "deleted" });
  await ctx.storage.removeCompany(id);
}
