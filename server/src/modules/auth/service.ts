import { randomUUID } from "node:crypto";
import type { AuthResponse, LoginForm } from "@charla/contracts";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { companies, refreshTokens, users, userSessions } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError } from "../../lib/app-error.js";
import { hashPassword, verifyPassword } from "../../lib/password-hash.js";
import { hit, reset } from "../../lib/rate-limit.js";
import { assertCompanyUsable } from "../../policies/company.js";
import { buildSessionUser } from "./session-user.js";

export type Issued = AuthResponse & { refreshToken: string };

// verifying against a real hash when the email is unknown keeps both paths equally slow
let dummyHash: Promise<string> | null = null;
const timingDummy = () => (dummyHash ??= hashPassword("charla-timing-dummy"));

export { hashPassword };

/**
 * POST /auth/login (core §4, §5): rate-limited per IP and per email, refused for an inactive or
 * expired company (unless super). A new login ends the user's older sessions, whose clients are told
 * through `company-{id}-auth`.
 */
export async function login(
  s: Services,
  form: { email: string; password: string },
  client: { ip: string; userAgent: string },
): Promise<Issued> {
  const { loginMaxPerIp, loginMaxPerEmail, loginWindowSec } = s.config;
  const ipKey = `login:ip:${client.ip}`;
  const emailKey = `login:email:${form.email}`;
  if ((await hit(s.db, ipKey, loginWindowSec)) > loginMaxPerIp) throw new AppError("ERR_RATE_LIMITED");
  // counted before the password is checked, in one atomic upsert: guesses sent in parallel each
  // take a number, so the (max+1)th is refused even while the first ones are still being verified
  if ((await hit(s.db, emailKey, loginWindowSec)) > loginMaxPerEmail) throw new AppError("ERR_RATE_LIMITED");

  const [user] = await s.db.select().from(users).where(eq(users.email, form.email)).limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? (await timingDummy()), form.password);
  if (!user || !ok) throw new AppError("ERR_INVALID_CREDENTIALS");
  await reset(s.db, emailKey);

  const [company] = await s.db.select().from(companies).where(eq(companies.id, user.companyId)).limit(1);
  assertCompanyUsable(company, user.super);

  const opened = await withTransaction(s, async (tx, { publish }) => {
    const replaced = await tx
      .update(userSessions)
      .set({ revokedAt: new Date(), revokeReason: "replaced" })
      .where(and(eq(userSessions.userId, user.id), eq(userSessions.companyId, user.companyId), isNull(userSessions.revokedAt)))
      .returning({ id: userSessions.id });
    const session = await openSession(s, tx, user, client);
    for (const { id } of replaced) {
      await publish({ type: "session.replaced", companyId: user.companyId, userId: user.id, sessionId: id });
    }
    return session;
  });
  return issued(s, opened);
}

export async function openSession(
  s: Services,
  tx: Tx,
  user: { id: number; companyId: number },
  client: { ip: string; userAgent: string },
): Promise<Who & { refreshToken: string }> {
  const sessionId = randomUUID();
  await tx.insert(userSessions).values({
    id: sessionId,
    companyId: user.companyId,
    userId: user.id,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 300),
    expiresAt: new Date(Date.now() + s.config.refreshTokenTtlSec * 1000),
  });
  return storeRefreshToken(s, tx, { id: user.id, companyId: user.companyId, sessionId });
}

export type Who = { id: number; companyId: number; sessionId: string };

/** The new refresh token stored (in the caller's transaction); the access token and user come after it. */
async function storeRefreshToken(s: Services, tx: Tx, who: Who): Promise<Who & { refreshToken: string }> {
  const refresh = s.tokens.newRefreshToken();
  await tx.insert(refreshTokens).values({ tokenHash: refresh.hash, sessionId: who.sessionId, companyId: who.companyId });
  return { ...who, refreshToken: refresh.token };
}

/**
 * The answer of a login or a refresh, read once its transaction has committed: on PGlite, which runs
 * one statement at a time, a transaction keeps the database to itself, and the session user's reads
 * (user, queues, plan, settings) held back the page load's socket handshake and first lists.
 */
export async function issued(s: Services, who: Who & { refreshToken: string }): Promise<Issued> {
  const token = await s.tokens.signAccess({ userId: who.id, companyId: who.companyId, sessionId: who.sessionId });
  return { token, refreshToken: who.refreshToken, user: await buildSessionUser(s.db, who.companyId, who.id) };
}

/**
 * POST /auth/refresh_token: rotates the refresh token. A token already rotated that comes back
 * means a copy exists elsewhere: the whole session (family) is revoked.
 */
export async function refresh(s: Services, refreshToken: string | undefined): Promise<Issued> {
  if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED");
  const hash = s.tokens.hashRefresh(refreshToken);
  const outcome = await withTransaction(s, async (tx, { publish }) => {
    // the token and its session locked (two tabs refreshing the same session go one after the other),
    // read with the user and company in one statement
    const [row] = await tx
      .select({ token: refreshTokens, session: userSessions, userSuper: users.super, company: companies })
      .from(refreshTokens)
      .innerJoin(userSessions, eq(userSessions.id, refreshTokens.sessionId))
      .leftJoin(users, and(eq(users.id, userSessions.userId), eq(users.companyId, userSessions.companyId)))
      .leftJoin(companies, eq(companies.id, users.companyId))
      .where(eq(refreshTokens.tokenHash, hash))
      .limit(1)
      .for("update", { of: [refreshTokens, userSessions] });
    if (!row || row.session.revokedAt || row.session.expiresAt < new Date()) return { error: true as const };
    // two tabs refreshing at once present the same token; within the grace window that is not theft
    const withinGrace = row.token.usedAt && Date.now() - row.token.usedAt.getTime() < s.config.refreshReuseGraceSec * 1000;
    if (row.token.usedAt && !withinGrace) {
      await tx
        .update(userSessions)
        .set({ revokedAt: new Date(), revokeReason: "refresh-reuse" })
        .where(eq(userSessions.id, row.session.id));
      await publish({ type: "session.ended", sessionId: row.session.id });
      return { error: true as const };
    }
    if (!row.company || row.userSuper === null) return { error: true as const };
    assertCompanyUsable(row.company, row.userSuper);
    // the old token marked used (once) and the session's last use, in one statement
    const now = new Date();
    const markUsed = tx.$with("mark_used").as(
      tx
        .update(refreshTokens)
        .set({ usedAt: now })
        .where(and(eq(refreshTokens.tokenHash, hash), isNull(refreshTokens.usedAt)))
        .returning({ hash: refreshTokens.tokenHash }),
    );
    await tx.with(markUsed).update(userSessions).set({ lastUsedAt: now }).where(eq(userSessions.id, row.session.id));
    return storeRefreshToken(s, tx, { id: row.session.userId, companyId: row.session.companyId, sessionId: row.session.id });
  });
  // the revocation must commit, so the error is thrown only after the transaction
  if ("error" in outcome) throw new AppError("ERR_SESSION_EXPIRED");
  return issued(s, outcome);
}

/** DELETE /auth/logout: ends the session named by the refresh cookie, or by the access token. */
export async function logout(s: Services, refreshToken: string | undefined, sessionId: string | null): Promise<void> {
  let sid = sessionId;
  if (!sid && refreshToken) {
    const [row] = await s.db
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, s.tokens.hashRefresh(refreshToken)))
      .limit(1);
    sid = row?.sessionId ?? null;
  }
  if (!sid) return;
  await s.db
    .update(userSessions)
    .set({ revokedAt: new Date(), revokeReason: "logout" })
    .where(and(eq(userSessions.id, sid), isNull(userSessions.revokedAt)));
  s.events.publish({ type: "session.ended", sessionId: sid });
}

/** Ends every session of a user but `keep` (password change, user moved or deleted). */
export async function revokeUserSessions(tx: Tx, companyId: number, userId: number, reason: string, keep?: string) {
  return tx
    .update(userSessions)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(
      and(
        eq(userSessions.userId, userId),
        eq(userSessions.companyId, companyId),
        isNull(userSessions.revokedAt),
        keep ? ne(userSessions.id, keep) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
}

export type { LoginForm };
