import type { SessionUser } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { scoped } from "../../db/scoped.js";
import { companies, plans } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { listSettings } from "../settings/queries.js";
import { findUserView } from "../users/queries.js";
import { planFlags } from "../../policies/company.js";

/** The user as login, refresh and /auth/me return it (core §7 Access). */
export async function buildSessionUser(db: Db | Tx, companyId: number, userId: number): Promise<SessionUser> {
  const q = scoped(db, companyId);
  const user = await findUserView(q, userId);
  if (!user) throw new AppError("ERR_SESSION_EXPIRED");
  const [row] = await (db as Db)
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1);
  const isAdmin = user.profile === "admin" || user.super;
  const flags = planFlags(row.plan);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    companyId: user.companyId,
    allTicket: user.allTicket,
    whatsappId: user.whatsappId,
    profileImage: user.profileImage,
    queues: user.queues,
    company: {
      id: row.company.id,
      name: row.company.name,
      dueDate: row.company.dueDate,
      timeZone: row.company.timeZone,
      primaryColor: row.company.primaryColor,
      headerColor: row.company.headerColor,
      pageTitle: row.company.pageTitle,
      logo: row.company.logoPath !== null,
      plan: row.plan && flags ? { id: row.plan.id, name: row.plan.name, ...flags } : null,
      settings: await listSettings(q, { includeSecrets: isAdmin }),
    },
  };
}
