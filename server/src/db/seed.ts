import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { PLATFORM_COMPANY_ID, SettingDefinitions, companySettingKeys, settingKeys } from "@charla/contracts";
import { hashPassword } from "../lib/password-hash.js";
import type { Db, Tx } from "./client.js";
import { companies, plans, settings, users, whatsapps } from "./schema/index.js";

/** Every settings key of core §3 with its default; existing values are kept (idempotent). */
export async function seedCompanySettings(tx: Db | Tx, companyId: number) {
  await tx
    .insert(settings)
    // platform keys (the sign-up switch) live on the main company only
    .values(
      (companyId === PLATFORM_COMPANY_ID ? settingKeys : companySettingKeys).map((key) => ({
        companyId,
        key,
        value: SettingDefinitions[key].default,
      })),
    )
    .onConflictDoNothing();
}

/**
 * First start: a plan, company 1 ("Empresa 1") with every setting at its default, and the super admin.
 * Safe to run on every start: it only adds what is missing and never changes a password.
 */
export async function seed(db: Db, opts: { adminEmail: string; adminPassword: string | null; log?: FastifyBaseLogger }) {
  await db.transaction(async (tx) => {
    // one seeding node at a time; the lock ends with the transaction
    await tx.execute(sql`select pg_advisory_xact_lock(7262)`);
    let [plan] = await tx.select().from(plans).orderBy(plans.id).limit(1);
    if (!plan) {
      [plan] = await tx.insert(plans).values({ name: "Plan 1", users: 10, connections: 10, queues: 10, value: "30" }).returning();
    }
    let [company] = await tx.select().from(companies).where(eq(companies.id, 1));
    if (!company) {
      [company] = await tx
        .insert(companies)
        .values({ id: 1, name: "Empresa 1", planId: plan.id, dueDate: "2093-03-14", recurrence: "MENSAL" })
        .returning();
      // the explicit id leaves the sequence behind; move it past company 1
      await tx.execute(
        sql`select setval(pg_get_serial_sequence('companies', 'id'), greatest((select max(id) from companies), 1))`,
      );
      // a built-in phone, so a fresh install shows the whole flow with no real WhatsApp (issue #3)
      await tx
        .insert(whatsapps)
        .values({ companyId: company.id, name: "Simulador", provider: "simulator", isDefault: true, status: "CONNECTED" });
    }
    await seedCompanySettings(tx, company.id);
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.email, opts.adminEmail));
    if (!admin) {
      const password = opts.adminPassword ?? randomBytes(12).toString("base64url");
      await tx.insert(users).values({
        companyId: company.id,
        name: "Admin",
        email: opts.adminEmail,
        passwordHash: await hashPassword(password),
        profile: "admin",
        super: true,
      });
      if (!opts.adminPassword) {
        // printed once, at creation; it is not stored anywhere in clear
        opts.log?.warn(`Super admin created: ${opts.adminEmail} / ${password} (set ADMIN_PASSWORD to choose it)`);
      }
    }
  });
}
