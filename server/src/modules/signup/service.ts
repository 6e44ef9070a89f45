import type { SignupForm, SignupInfo } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Services } from "../../context.js";
import { plans, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { hashPassword } from "../../lib/password-hash.js";
import { hit } from "../../lib/rate-limit.js";
import { type Issued, issued, openSession } from "../auth/service.js";
import { inDays, insertCompanyWithAdmin } from "../companies/service.js";
import { platformSettingValue } from "../settings/queries.js";

type Form = z.output<typeof SignupForm>;
type Client = { ip: string; userAgent: string };

/** The name of the connection every signed-up company starts with: it answers without a phone. */
export const SIGNUP_CONNECTION_NAME = "Simulador";

async function enabled(s: Pick<Services, "db">): Promise<boolean> {
  return (await platformSettingValue(s.db, "userCreation")) === "enabled";
}

/** GET /auth/signup: whether the operator lets companies sign up (platform setting userCreation), and the trial. */
export async function signupInfo(s: Pick<Services, "db" | "config">): Promise<SignupInfo> {
  return { enabled: await enabled(s), trialDays: s.config.signupTrialDays };
}

/**
 * POST /auth/signup (core §2): rate-limited per IP as the login is, refused while userCreation is off.
 * In one transaction: the company with a trial due date, its default settings, its admin, a simulator
 * connection (the default) and the admin's session; a duplicate name or email leaves nothing behind.
 * Answers as POST /auth/login does.
 */
export async function signup(s: Services, form: Form, client: Client): Promise<Issued> {
  const { loginMaxPerIp, loginWindowSec } = s.config;
  if ((await hit(s.db, `signup:ip:${client.ip}`, loginWindowSec)) > loginMaxPerIp) throw new AppError("ERR_RATE_LIMITED");
  if (!(await enabled(s))) throw new AppError("ERR_USER_CREATION_DISABLED");
  const [plan] = await s.db.select({ id: plans.id }).from(plans).where(eq(plans.id, form.planId));
  found(plan, "ERR_NO_PLAN_FOUND");
  const passwordHash = await hashPassword(form.password);

  const made = await withTransaction(s.db, async (tx) => {
    const { company, adminId } = await insertCompanyWithAdmin(tx, {
      name: form.companyName,
      email: form.email,
      phone: form.phone,
      planId: form.planId,
      dueDate: inDays(s.config.signupTrialDays),
      adminName: form.name,
      password: form.password,
      passwordHash,
    });
    const [connection] = await tx
      .insert(whatsapps)
      .values({
        companyId: company.id,
        name: SIGNUP_CONNECTION_NAME,
        provider: "simulator",
        isDefault: true,
        status: "DISCONNECTED",
      })
      .returning({ id: whatsapps.id });
    const session = await openSession(s, tx, { id: adminId, companyId: company.id }, client);
    return { session, companyId: company.id, whatsappId: connection.id };
  });
  // the simulator has nothing to scan: it starts now, as a new simulator connection does
  try {
    await s.sessions.restart(made.companyId, made.whatsappId);
  } catch (err) {
    s.log.error({ err, whatsappId: made.whatsappId }, "signed-up company's simulator did not start");
  }
  return issued(s, made.session);
}
