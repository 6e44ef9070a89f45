import type { PlanFlagSet, Profile } from "@charla/contracts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Principal } from "../../context.js";
import type { Db } from "../../db/client.js";
import { literalCount } from "../../db/prepared.js";
import { Binds, shaped } from "../../db/shaped.js";
import { companies, plans, userQueues, users, userSessions } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { areaConnectionIdsOf } from "../tickets/viewer.js";
import type { AccessClaims } from "./tokens.js";

export const today = () => new Date().toISOString().slice(0, 10);

/** A company may be used when active and not past its due date; super users are never locked out. */
export function assertCompanyUsable(company: { status: boolean; dueDate: string | null }, isSuper: boolean): void {
  if (isSuper) return;
  if (!company.status) throw new AppError("ERR_COMPANY_INACTIVE");
  if (company.dueDate && company.dueDate < today()) {
    const [y, m, d] = company.dueDate.split("-");
    throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { data: { dueDate: company.dueDate, date: `${d}/${m}/${y}` } });
  }
}

/** The same rule as a yes/no, for those that act on it rather than refuse (e.g. ending open sockets). */
export function companyUsable(company: { status: boolean; dueDate: string | null }): boolean {
  try {
    assertCompanyUsable(company, false);
    return true;
  } catch {
    return false;
  }
}

export function planFlags(p: typeof plans.$inferSelect | null): PlanFlagSet | null {
  if (!p) return null;
  return {
    useCampaigns: p.useCampaigns,
    useKanban: p.useKanban,
    useOpenAi: p.useOpenAi,
    useIntegrations: p.useIntegrations,
    useSchedules: p.useSchedules,
    useInternalChat: p.useInternalChat,
    useExternalApi: p.useExternalApi,
  };
}

/**
 * One query per request: the token's user, still in the token's company, with a live session.
 * A revoked session (logout, a newer login, refresh reuse) answers 401.
 */
export async function loadPrincipal(db: Db, claims: AccessClaims): Promise<Principal> {
  const b = new Binds();
  const session = and(
    eq(userSessions.id, b.v("sessionId", claims.sessionId)),
    eq(userSessions.userId, b.v("userId", claims.userId)),
    eq(userSessions.companyId, b.v("companyId", claims.companyId)),
    isNull(userSessions.revokedAt),
    gt(userSessions.expiresAt, b.v("now", new Date().toISOString())),
  );
  const rows = await shaped(db, "principal", b, () =>
    db
      .select({
        user: {
          id: users.id,
          companyId: users.companyId,
          name: users.name,
          email: users.email,
          profile: users.profile,
          super: users.super,
          allTicket: users.allTicket,
          whatsappId: users.whatsappId,
        },
        // the ticket visibility facts (core §6) come along: most requests decide on them
        queueIds: sql<number[]>`array(select ${userQueues.queueId} from ${userQueues}
          where ${userQueues.userId} = ${users.id} and ${userQueues.companyId} = ${users.companyId} order by 1)`,
        areaConnectionIds: areaConnectionIdsOf(),
        company: { status: companies.status, dueDate: companies.dueDate },
        plan: plans,
      })
      .from(userSessions)
      .innerJoin(users, and(eq(users.id, userSessions.userId), eq(users.companyId, userSessions.companyId)))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(session)
      .limit(literalCount(1)),
  );
  const row = rows[0];
  if (!row) throw new AppError((await sessionMovedCompany(db, claims)) ? "ERR_TOKEN_EXPIRED" : "ERR_SESSION_EXPIRED");
  assertCompanyUsable(row.company, row.user.super);
  return {
    id: row.user.id,
    companyId: row.user.companyId,
    name: row.user.name,
    email: row.user.email,
    profile: row.user.profile as Profile,
    super: row.user.super,
    sessionId: claims.sessionId,
    plan: planFlags(row.plan),
    ticketFacts: {
      allTicket: row.user.allTicket,
      whatsappId: row.user.whatsappId,
      queueIds: row.queueIds,
      areaConnectionIds: row.areaConnectionIds,
    },
  };
}

/**
 * A live session whose company is no longer the token's: a super user swapped company. The token is
 * stale, not the session, so the client should refresh (403) rather than log out (401).
 */
async function sessionMovedCompany(db: Db, claims: AccessClaims): Promise<boolean> {
  const rows = await db
    .select({ companyId: userSessions.companyId })
    .from(userSessions)
    .where(and(eq(userSessions.id, claims.sessionId), eq(userSessions.userId, claims.userId), isNull(userSessions.revokedAt)))
    .limit(1);
  return rows.length > 0 && rows[0].companyId !== claims.companyId;
}
