import { type Profile, type UserView, V, can } from "@charla/contracts";
import argon2 from "argon2";
import { and, count, eq, inArray, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { toCount } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { companies, plans, queues, refreshTokens, userQueues, users, userSessions } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import type { DomainEvent, Publish } from "../../events/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode } from "../../lib/pg-errors.js";
import { hit, reset } from "../../lib/rate-limit.js";
import { hashPassword, revokeUserSessions } from "../auth/service.js";
import { limitEmailProbes } from "./email-probe.js";
import { findUserView } from "./queries.js";

type CreateInput = z.output<typeof import("@charla/contracts").UserCreateForm>;
type UpdateInput = z.output<typeof import("@charla/contracts").UserUpdateForm>;

const isAdminLike = (ctx: RequestCtx) => ctx.user.profile === "admin" || ctx.user.super;
const manages = (ctx: RequestCtx) => can(ctx.user, "users.manage");

/** Only admins (or super) hand out or touch the admin profile; only super hands out super. */
function assertMayAssign(
  ctx: RequestCtx,
  profile: Profile | undefined,
  makeSuper: boolean | undefined,
  target?: { profile: string; super: boolean },
) {
  if (profile === "admin" && !isAdminLike(ctx)) throw new AppError("ERR_NO_PERMISSION");
  if (target && (target.profile === "admin" || target.super) && !isAdminLike(ctx)) {
    throw new AppError("ERR_NO_PERMISSION");
  }
  if (makeSuper !== undefined && makeSuper !== (target?.super ?? false) && !ctx.user.super)
    throw new AppError("ERR_NO_PERMISSION");
  if (target?.super && !ctx.user.super) throw new AppError("ERR_NO_PERMISSION");
}

/**
 * Who may edit another user at all: whoever manages users, and an admin or super user only by an
 * admin-like one, a super user only by a super user. The same rule for every edit of a user.
 */
function assertMayEdit(ctx: RequestCtx, target: { id: number; profile: string; super: boolean }) {
  if (target.id === ctx.user.id) return;
  if (!manages(ctx)) throw new AppError("ERR_NO_PERMISSION");
  assertMayAssign(ctx, undefined, undefined, target);
}

async function assertRefsOwned(q: Scoped, queueIds: number[] | undefined, whatsappId: number | null | undefined) {
  if (queueIds?.length) {
    const unique = [...new Set(queueIds)];
    const rows = await q.db
      .select({ id: queues.id })
      .from(queues)
      .where(q.queues.where(inArray(queues.id, unique)));
    if (rows.length !== unique.length) throw new AppError("ERR_NO_QUEUE_FOUND");
  }
  if (whatsappId) found(await q.whatsapps.findById(whatsappId), "ERR_NO_WAPP_FOUND");
}

async function setQueues(q: Scoped, userId: number, queueIds: number[]) {
  await q.db.delete(userQueues).where(q.userQueues.where(eq(userQueues.userId, userId)));
  const unique = [...new Set(queueIds)];
  if (unique.length) {
    await q.db.insert(userQueues).values(unique.map((queueId) => ({ companyId: q.companyId, userId, queueId })));
  }
}

function mapUnique(err: unknown): never {
  if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
  throw err;
}

async function emailTaken(tx: Tx, email: string, exceptId?: number) {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(exceptId ? and(eq(users.email, email), ne(users.id, exceptId)) : eq(users.email, email))
    .limit(1);
  return rows.length > 0;
}

/** `company-{id}-user` for a created or changed user (also for changes made elsewhere, e.g. a deleted queue). */
export function userChanged(companyId: number, action: "create" | "update", user: UserView): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "user", change: { action, user } };
}

/** `company-{id}-user` for a user gone from a company (deleted, or moved to another one). */
function userGone(companyId: number, userId: number): DomainEvent<"record.changed"> {
  return { type: "record.changed", companyId, audience: "company", area: "user", change: { action: "delete", userId } };
}

/** The sockets of sessions revoked in the transaction end once it has committed. */
async function endSessions(publish: Publish, ended: { id: string }[]) {
  for (const s of ended) await publish({ type: "session.ended", sessionId: s.id });
}

/** POST /users: within the plan's user count; email unique across Charla. */
export async function createUser(ctx: RequestCtx, input: CreateInput): Promise<UserView> {
  assertMayAssign(ctx, input.profile, input.super);
  return limitEmailProbes(ctx, async () => createUserRow(ctx, input, await hashPassword(input.password)));
}

// hashing happens before the transaction: on embedded PGlite a transaction holds the only connection
function createUserRow(ctx: RequestCtx, input: CreateInput, passwordHash: string): Promise<UserView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    // lock the company row: two concurrent creations cannot both pass the plan limit
    const [limits] = await tx
      .select({ max: plans.users })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, ctx.companyId))
      .for("update", { of: companies });
    const [{ n }] = await tx.select({ n: count() }).from(users).where(q.users.where());
    if (limits && toCount(n) >= limits.max) throw new AppError("ERR_USER_LIMIT_REACHED");
    if (await emailTaken(tx, input.email)) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
    await assertRefsOwned(q, input.queueIds, input.whatsappId);
    const row = await q.users
      .insert({
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile,
        super: input.super ?? false,
        allTicket: input.allTicket ?? "disable",
        whatsappId: input.whatsappId ?? null,
      })
      .catch(mapUnique);
    if (input.queueIds) await setQueues(q, row.id, input.queueIds);
    const view = found(await findUserView(q, row.id), "ERR_NO_USER_FOUND");
    await publish(userChanged(ctx.companyId, "create", view));
    return view;
  });
}

const privileged = ["profile", "super", "queueIds", "allTicket", "whatsappId"] as const;

/**
 * Changing one's own password proves the current one first: a borrowed session or a stolen token
 * cannot lock the owner out. Attempts count before the check, like logins, so parallel guesses too.
 */
async function assertCurrentPassword(ctx: RequestCtx, current: string | undefined) {
  if (!current) throw new AppError("ERR_VALIDATION", { issues: [{ path: "currentPassword", message: V.required }] });
  const key = `password:user:${ctx.user.id}`;
  const { loginMaxPerEmail, loginWindowSec } = ctx.config;
  if ((await hit(ctx.db, key, loginWindowSec)) > loginMaxPerEmail) throw new AppError("ERR_RATE_LIMITED");
  const [row] = await ctx.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, ctx.user.id), eq(users.companyId, ctx.companyId)));
  if (!row || !(await argon2.verify(row.hash, current).catch(() => false))) throw new AppError("ERR_WRONG_PASSWORD");
  await reset(ctx.db, key);
}

/** PUT /users/{id}: anyone edits their own name, email and password; the rest needs users.manage. */
export async function updateUser(ctx: RequestCtx, id: number, input: UpdateInput): Promise<UserView> {
  if (input.password && id === ctx.user.id) await assertCurrentPassword(ctx, input.currentPassword);
  const newHash = input.password ? await hashPassword(input.password) : null;
  // only a new email can be answered "taken": other edits are never limited
  const current = await scoped(ctx.db, ctx.companyId).users.findById(id);
  const write = () => updateUserRow(ctx, id, input, newHash);
  return current && current.email !== input.email ? limitEmailProbes(ctx, write) : write();
}

function updateUserRow(ctx: RequestCtx, id: number, input: UpdateInput, newHash: string | null): Promise<UserView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const target = found(await q.users.lockById(id), "ERR_NO_USER_FOUND");
    const self = target.id === ctx.user.id;
    assertMayEdit(ctx, target);
    if (!manages(ctx)) {
      const current = await findUserView(q, id);
      const sameQueues = (ids?: number[]) =>
        ids === undefined ||
        [...new Set(ids)].sort().join() ===
          (current?.queues
            .map((x) => x.id)
            .sort()
            .join() ?? "");
      const changes = privileged.filter((k) =>
        k === "queueIds" ? !sameQueues(input.queueIds) : input[k] !== undefined && input[k] !== target[k],
      );
      if (changes.length) throw new AppError("ERR_NO_PERMISSION");
    } else {
      assertMayAssign(ctx, input.profile, input.super, self ? undefined : target);
      if (self && input.profile && input.profile !== target.profile && !isAdminLike(ctx)) throw new AppError("ERR_NO_PERMISSION");
    }
    if (input.email !== target.email && (await emailTaken(tx, input.email, id))) throw new AppError("ERR_EMAIL_ALREADY_EXISTS");
    await assertRefsOwned(q, input.queueIds, input.whatsappId);
    const passwordChanged = newHash !== null;
    await q.users
      .update(id, {
        name: input.name,
        email: input.email,
        ...(input.profile ? { profile: input.profile } : {}),
        ...(input.super !== undefined && ctx.user.super ? { super: input.super } : {}),
        ...(input.allTicket ? { allTicket: input.allTicket } : {}),
        ...(input.whatsappId !== undefined ? { whatsappId: input.whatsappId } : {}),
        ...(newHash ? { passwordHash: newHash } : {}),
      })
      .catch(mapUnique);
    if (input.queueIds && manages(ctx)) await setQueues(q, id, input.queueIds);
    // a new password ends the user's other sessions (the editor's own stays)
    const ended = passwordChanged ? await revokeUserSessions(tx, ctx.companyId, id, "password", ctx.user.sessionId) : [];
    const view = found(await findUserView(q, id), "ERR_NO_USER_FOUND");
    await publish(userChanged(ctx.companyId, "update", view));
    await endSessions(publish, ended);
    return view;
  });
}

/** DELETE /users/{id}: not oneself, not an admin by a non-admin, never the last super user. */
export function deleteUser(ctx: RequestCtx, id: number): Promise<void> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const target = found(await q.users.lockById(id), "ERR_NO_USER_FOUND");
    if (target.id === ctx.user.id) throw new AppError("ERR_CANNOT_DELETE_SELF");
    if ((target.profile === "admin" || target.super) && !isAdminLike(ctx)) throw new AppError("ERR_NO_PERMISSION");
    if (target.super) {
      if (!ctx.user.super) throw new AppError("ERR_NO_PERMISSION");
      const [{ n }] = await tx.select({ n: count() }).from(users).where(eq(users.super, true));
      if (toCount(n) <= 1) throw new AppError("ERR_LAST_SUPER");
    }
    const ended = await revokeUserSessions(tx, ctx.companyId, id, "deleted");
    await q.users.delete(id);
    await publish(userGone(ctx.companyId, id));
    await endSessions(publish, ended);
    const image = target.profileImage;
    if (image) afterCommit(() => ctx.storage.remove(ctx.companyId, image));
  });
}

/**
 * POST /users/{id}/media-upload: the bytes must be a JPEG (core §5). Whoever may not edit the user
 * is refused before the upload is read.
 */
export async function setProfileImage(ctx: RequestCtx, id: number, store: (path: string) => Promise<void>): Promise<UserView> {
  const q0 = scoped(ctx.db, ctx.companyId);
  const target = found(await q0.users.findById(id), "ERR_NO_USER_FOUND");
  // refused before a byte of the file is read
  assertMayEdit(ctx, target);
  const path = `users/${id}-${Date.now()}.jpg`;
  await store(path);
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    await q.users.update(id, { profileImage: path });
    const view = found(await findUserView(q, id), "ERR_NO_USER_FOUND");
    await publish(userChanged(ctx.companyId, "update", view));
    const image = target.profileImage;
    if (image) afterCommit(() => ctx.storage.remove(ctx.companyId, image));
    return view;
  });
}

/** PUT /users-company/{id} (super): moves a user to another company, leaving queues and sessions behind. */
export function moveUserToCompany(ctx: RequestCtx, id: number, companyId: number, profile?: Profile): Promise<UserView> {
  return withTransaction(ctx, async (tx, { publish, afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const target = found(await q.users.lockById(id), "ERR_NO_USER_FOUND");
    const [dest] = await tx
      .select({ id: companies.id, max: plans.users })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId))
      .for("update", { of: companies });
    found(dest, "ERR_NO_COMPANY_FOUND");
    if (companyId !== ctx.companyId) {
      const [{ n }] = await tx.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
      if (toCount(n) >= dest.max) throw new AppError("ERR_USER_LIMIT_REACHED");
    }
    await tx.delete(userQueues).where(q.userQueues.where(eq(userQueues.userId, id)));
    const ended = await revokeUserSessions(tx, ctx.companyId, id, "moved", id === ctx.user.id ? ctx.user.sessionId : undefined);
    await tx
      .update(users)
      .set({ companyId, whatsappId: null, profileImage: null, updatedAt: new Date(), ...(profile ? { profile } : {}) })
      .where(q.users.where(eq(users.id, id)));
    if (id === ctx.user.id) {
      // a super user swapping company keeps this session: it follows the user, and the next refresh
      // issues a token for the new company (secondary §4 company swap)
      await tx.update(userSessions).set({ companyId }).where(eq(userSessions.id, ctx.user.sessionId));
      await tx.update(refreshTokens).set({ companyId }).where(eq(refreshTokens.sessionId, ctx.user.sessionId));
    }
    const view = found(await findUserView(scoped(tx, companyId), id), "ERR_NO_USER_FOUND");
    const image = target.profileImage;
    if (image) afterCommit(() => ctx.storage.remove(ctx.companyId, image));
    await publish(userGone(ctx.companyId, id));
    await publish(userChanged(companyId, "create", view));
    await endSessions(publish, ended);
    return view;
  });
}
