import type { PlanFlagSet, Profile } from "@charla/contracts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { literalCount } from "../db/prepared.js";
import { Binds, shaped } from "../db/shaped.js";
import { companies, plans, userQueues, users, userSessions } from "../db/schema/index.js";
import { AppError } from "../lib/app-error.js";
import { assertCompanyUsable, planFlags } from "../policies/company.js";
import { areaConnectionIdsOf } from "../policies/tickets.js";
import type { AccessClaims } from "./tokens.js";

/**
 * The authenticated user as every service sees it; its companyId comes only from the token. It lives
 * here, below modules/, because the HTTP plugin and the socket handshake both build it.
 */
export type Principal = {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  sessionId: string;
  plan: PlanFlagSet | null;
  /**
   * What ticket visibility is decided on (core §6), read with the principal in the same statement.
   * Only as fresh as the principal: trust it for a request, not for a socket that lives for hours.
   */
  ticketFacts?: { allTicket: string; whatsappId: number | null; queueIds: number[]; areaConnectionIds: number[] };
};

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
