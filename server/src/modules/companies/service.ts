import type { CompanyCreateForm, CompanyUpdateForm, CompanyView, SettingView } from "@charla/contracts";
import { and, asc, count, eq, ilike } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx, Services } from "../../context.js";
import type { Db, Tx } from "../../db/client.js";
import { toCount } from "../../db/client.js";
import { companies, plans, settings, users, whatsapps } from "../../db/schema/index.js";
import { seedCompanySettings } from "../../db/seed.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { escapeLike } from "../../lib/like.js";
import { PG_UNIQUE_VIOLATION, pgConstraint, pgErrorCode } from "../../lib/pg-errors.js";
import { companyUsable } from "../../policies/company.js";
import { hashPassword } from "../auth/service.js";
import { listSettings } from "../settings/queries.js";
import { scoped } from "../../db/scoped.js";
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

/** The company's setting campaignsEnabled, joined to its row: the view's switch is derived from it. */
const campaignsSetting = and(eq(settings.companyId, companies.id), eq(settings.key, "campaignsEnabled"));
const isOn = (value: string | null | undefined) => value === "true" || value === "enabled";

function selectCompanies(db: Db | Tx) {
  return db
    .select({ c: companies, p: plans, campaigns: settings.value })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .leftJoin(settings, campaignsSetting);
}

export async function findCompany(db: Db | Tx, id: number): Promise<CompanyView | null> {
  const [row] = await selectCompanies(db).where(eq(companies.id, id));
  return row ? presentCompany(row.c, row.p, isOn(row.campaigns)) : null;
}

/** A company reads itself; super users read any. Others' ids answer 404 like missing ones. */
export async function readCompany(ctx: RequestCtx, id: number): Promise<CompanyView> {
  if (id !== ctx.companyId && !ctx.user.super) throw new AppError("ERR_NO_COMPANY_FOUND");
  return found(await findCompany(ctx.db, id), "ERR_NO_COMPANY_FOUND");
}

/** GET /companies/{id}: the company with its settings (secret keys only for admins and super users, as GET /settings). */
export async function readCompanyWithSettings(ctx: RequestCtx, id: number): Promise<CompanyView> {
  const company = await readCompany(ctx, id);
  const list: SettingView[] = await listSettings(scoped(ctx.db, id), {
    includeSecrets: ctx.user.profile === "admin" || ctx.user.super,
    includePlatform: ctx.user.super,
  });
  return { ...company, settings: list };
}

export async function listCompanies(db: Db, search = "", pageNumber?: number) {
  const where = search ? ilike(companies.name, `%${escapeLike(search)}%`) : undefined;
  const q = selectCompanies(db).where(where).orderBy(asc(companies.id));
  const present = (r: { c: typeof companies.$inferSelect; p: typeof plans.$inferSelect | null; campaigns: string | null }) =>
    presentCompany(r.c, r.p, isOn(r.campaigns));
  if (!pageNumber) return (await q).map(present);
  const rows = await q.limit(20).offset((pageNumber - 1) * 20);
  const [{ n }] = await db.select({ n: count() }).from(companies).where(where);
  const total = toCount(n);
  return {
    companies: rows.map(present),
    count: total,
    hasMore: total > (pageNumber - 1) * 20 + rows.length,
  };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The form's billing identity and address (secondary §3), undefined fields left as they are. */
const billingOf = (input: Partial<CreateInput>) => ({
  billingName: input.billingName,
  addressZipCode: input.addressZipCode,
  addressStreet: input.addressStreet,
  addressState: input.addressState,
  addressCity: input.addressCity,
  addressDistrict: input.addressDistrict,
});

/** The switch of secondary §3 is the company's setting campaignsEnabled, written with the company. */
async function writeCampaignsSetting(tx: Tx, companyId: number, on: boolean | undefined) {
  if (on === undefined) return;
  const value = on ? "enabled" : "disabled";
  await tx
    .insert(settings)
    .values({ companyId, key: "campaignsEnabled", value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } });
}

/**
 * A company with every setting at its default and its first admin, in the caller's transaction
 * (POST /companies and the public sign-up). Duplicate name or email answer their codes.
 */
export async function insertCompanyWithAdmin(
  tx: Tx,
  input: CreateInput & { passwordHash: string },
): Promise<{ company: typeof companies.$inferSelect; adminId: number }> {
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
      ...billingOf(input),
    })
    .returning()
    .catch(mapUnique);
  await seedCompanySettings(tx, company.id);
  await writeCampaignsSetting(tx, company.id, input.campaignsEnabled);
  const [admin] = await tx
    .insert(users)
    .values({
      companyId: company.id,
      name: input.adminName ?? "Admin",
      email: input.email,
      passwordHash: input.passwordHash,
      profile: "admin",
    })
    .returning({ id: users.id })
    .catch(mapUnique);
  return { company, adminId: admin.id };
}

/** Creates a company with every setting at its default and its first admin user. */
export async function createCompany(s: Pick<Services, "db">, input: CreateInput): Promise<CompanyView> {
  await assertPlan(s.db, input.planId);
  const passwordHash = await hashPassword(input.password);
  return withTransaction(s.db, async (tx) => {
    const { company } = await insertCompanyWithAdmin(tx, { ...input, passwordHash });
    return found(await findCompany(tx, company.id), "ERR_NO_COMPANY_FOUND");
  });
}

export async function updateCompany(s: Pick<Services, "db" | "events">, id: number, input: UpdateInput): Promise<CompanyView> {
  await assertPlan(s.db, input.planId);
  const { campaignsEnabled, ...fields } = input;
  const row = await withTransaction(s.db, async (tx) => {
    const [updated] = await tx
      .update(companies)
      .set({ ...fields, email: fields.email ?? undefined, updatedAt: new Date() })
      .where(eq(companies.id, id))
      .returning()
      .catch(mapUnique);
    found(updated, "ERR_NO_COMPANY_FOUND");
    await writeCampaignsSetting(tx, id, campaignsEnabled);
    return updated;
  });
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
  // read before the cascade takes them: their live sessions on this process end with the company
  const connections = await ctx.db.select({ id: whatsapps.id }).from(whatsapps).where(eq(whatsapps.companyId, id));
  const gone = await ctx.db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id });
  found(gone[0], "ERR_NO_COMPANY_FOUND");
  ctx.events.publish({ type: "company.blocked", companyId: id, keepUserIds: [], reason: "deleted" });
  // the cascade removed their leases, so other processes' lease rounds stop theirs too
  for (const c of connections) await ctx.sessions.stop(c.id);
  await ctx.storage.removeCompany(id);
}
