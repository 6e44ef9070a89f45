import { randomInt, randomUUID } from "node:crypto";
import type { Profile } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import {
  companies,
  contacts,
  messages,
  plans,
  queues,
  tags,
  tickets,
  ticketTracking,
  userQueues,
  users,
  whatsapps,
} from "../db/schema/index.js";
import { hashPassword } from "../modules/auth/service.js";
import { seedCompanySettings } from "../db/seed.js";

const uid = () => randomUUID().slice(0, 8);
export const PASSWORD = "secret-123";
let cachedHash: Promise<string> | null = null;
// one argon2 hash for every factory user keeps the suite fast; login still verifies it for real
const passwordHash = () => (cachedHash ??= hashPassword(PASSWORD));

export type Session = { token: string; cookie: string; userId: number; companyId: number };
export type BuiltUser = { id: number; email: string; name: string; companyId: number; profile: Profile; super: boolean };
export type BuiltCompany = { id: number; name: string; planId: number; admin: BuiltUser };

export async function buildPlan(app: FastifyInstance, values: Partial<typeof plans.$inferInsert> = {}) {
  const [plan] = await app.charla.db
    .insert(plans)
    .values({ name: `Plan ${uid()}`, ...values })
    .returning();
  return plan;
}

/** A company with its settings and an admin user; every test builds its own. */
export async function buildCompany(
  app: FastifyInstance,
  values: Partial<typeof companies.$inferInsert> & { plan?: Partial<typeof plans.$inferInsert> } = {},
): Promise<BuiltCompany> {
  const { plan: planValues, ...companyValues } = values;
  const plan = await buildPlan(app, planValues);
  const [company] = await app.charla.db
    .insert(companies)
    .values({ name: `Empresa ${uid()}`, planId: plan.id, dueDate: "2099-12-31", ...companyValues })
    .returning();
  await seedCompanySettings(app.charla.db, company.id);
  const admin = await buildUser(app, company.id, { profile: "admin" });
  return { id: company.id, name: company.name, planId: plan.id, admin };
}

export async function buildUser(
  app: FastifyInstance,
  companyId: number,
  values: Partial<Omit<typeof users.$inferInsert, "companyId">> = {},
): Promise<BuiltUser> {
  const [u] = await app.charla.db
    .insert(users)
    .values({
      companyId,
      name: `User ${uid()}`,
      email: `u-${uid()}-${Date.now()}@test.charla`,
      passwordHash: await passwordHash(),
      profile: "user",
      ...values,
    })
    .returning();
  return { id: u.id, email: u.email, name: u.name, companyId: u.companyId, profile: u.profile as Profile, super: u.super };
}

export async function buildQueue(app: FastifyInstance, companyId: number, values: Partial<typeof queues.$inferInsert> = {}) {
  const [q] = await app.charla.db
    .insert(queues)
    .values({ companyId, name: `Area ${uid()}`, color: `#${uid().slice(0, 6)}`, ...values })
    .returning();
  return q;
}

export async function buildWhatsapp(
  app: FastifyInstance,
  companyId: number,
  values: Partial<typeof whatsapps.$inferInsert> = {},
) {
  const [w] = await app.charla.db
    .insert(whatsapps)
    .values({ companyId, name: `Conexión ${uid()}`, ...values })
    .returning();
  return w;
}

export async function setUserFlag(app: FastifyInstance, userId: number, values: Partial<typeof users.$inferInsert>) {
  await app.charla.db.update(users).set(values).where(eq(users.id, userId));
}

/** Logs in through the real endpoint; returns the bearer token and the refresh cookie. */
export async function login(
  app: FastifyInstance,
  user: { email: string },
  password = PASSWORD,
  remoteAddress = "127.0.0.1",
): Promise<Session> {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email: user.email, password },
    remoteAddress,
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return {
    token: body.token,
    cookie: refreshCookieOf(res.headers["set-cookie"]),
    userId: body.user.id,
    companyId: body.user.companyId,
  };
}

export function refreshCookieOf(header: string | string[] | undefined): string {
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const c = list.find((h) => h.startsWith("charla_rt="));
  return c ? c.split(";")[0] : "";
}

/** `inject` as a logged-in user. */
export function as(app: FastifyInstance, session: Pick<Session, "token">, opts: InjectOptions) {
  return app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `Bearer ${session.token}` } });
}

export async function buildContact(app: FastifyInstance, companyId: number, values: Partial<typeof contacts.$inferInsert> = {}) {
  const [c] = await app.charla.db
    .insert(contacts)
    .values({
      companyId,
      name: `Cliente ${uid()}`,
      number: `55${randomInt(1e9, 1e10)}${randomInt(100, 1000)}`,
      ...values,
    })
    .returning();
  return c;
}

export async function buildTicket(
  app: FastifyInstance,
  companyId: number,
  values: Partial<typeof tickets.$inferInsert> & { contactId: number },
) {
  const [t] = await app.charla.db
    .insert(tickets)
    .values({ companyId, status: "pending", ...values })
    .returning();
  await app.charla.db
    .insert(ticketTracking)
    .values({ companyId, ticketId: t.id, whatsappId: t.whatsappId, queuedAt: new Date() });
  return t;
}

export async function buildMessage(
  app: FastifyInstance,
  ticket: { id: number; companyId: number; contactId: number; whatsappId: number | null },
  values: Partial<typeof messages.$inferInsert> = {},
) {
  const [m] = await app.charla.db
    .insert(messages)
    .values({
      companyId: ticket.companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      channelId: `test-${uid()}`,
      body: `Mensaje ${uid()}`,
      ...values,
    })
    .returning();
  return m;
}

export async function buildTag(app: FastifyInstance, companyId: number, values: Partial<typeof tags.$inferInsert> = {}) {
  const [t] = await app.charla.db
    .insert(tags)
    .values({ companyId, name: `Etiqueta ${uid()}`, ...values })
    .returning();
  return t;
}

export async function addUserQueue(app: FastifyInstance, companyId: number, userId: number, queueId: number) {
  await app.charla.db.insert(userQueues).values({ companyId, userId, queueId });
}
