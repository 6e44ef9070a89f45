import type { RequestCtx } from "../../context.js";
import { AppError } from "../../lib/app-error.js";
import { hit, release } from "../../lib/rate-limit.js";

/**
 * Runs a write that may answer ERR_EMAIL_ALREADY_EXISTS. Emails are global (login is by email), so
 * that answer tells whoever may create users, or edit their own email, whether an address is
 * registered in any company: a user gets it EMAIL_TAKEN_MAX_PER_USER times per LOGIN_WINDOW_SEC,
 * and a company's users together EMAIL_TAKEN_MAX_PER_COMPANY times (an admin could otherwise make a
 * fresh user for each few probes); then every such write is 429 until the window passes (a free
 * address too, or the 429 would tell the same). Like login attempts, an attempt takes its number before the check (parallel ones
 * cannot all slip under the limit) and gives it back unless the answer was "taken". Each "taken"
 * is logged with who asked; never the password.
 */
export async function limitEmailProbes<T>(ctx: RequestCtx, write: () => Promise<T>): Promise<T> {
  const limits = [
    { key: `email-taken:user:${ctx.user.id}`, max: ctx.config.emailTakenMaxPerUser },
    { key: `email-taken:company:${ctx.companyId}`, max: ctx.config.emailTakenMaxPerCompany },
  ];
  let over = false;
  for (const { key, max } of limits) if ((await hit(ctx.db, key, ctx.config.loginWindowSec)) > max) over = true;
  if (over) {
    ctx.log.warn({ userId: ctx.user.id, companyId: ctx.companyId }, "email probes over the limit");
    throw new AppError("ERR_RATE_LIMITED");
  }
  let taken = false;
  try {
    return await write();
  } catch (err) {
    taken = err instanceof AppError && err.code === "ERR_EMAIL_ALREADY_EXISTS";
    if (taken) ctx.log.warn({ userId: ctx.user.id, companyId: ctx.companyId }, "email already registered");
    throw err;
  } finally {
    if (!taken) for (const { key } of limits) await release(ctx.db, key);
  }
}
