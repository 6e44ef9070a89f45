import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCatalogue, isErrorCode } from "@charla/contracts";
import { plans, queues, users, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { type BuiltCompany, buildCompany, buildUser, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

/**
 * A plan's limits (issue 29): lowering a plan below what a company already has deletes nothing; it
 * only refuses the next record, each area with its own code.
 */
let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const limits = { users: 10, connections: 10, queues: 10 };

/** A company whose plan allows 3 of each, filled to 3, and the plan then lowered to 1 by a super user. */
async function lowered(area: keyof typeof limits, fill: (c: BuiltCompany) => Promise<unknown>) {
  const c = await buildCompany(t.app, { plan: { ...limits, [area]: 3 } });
  await fill(c);
  const sup = await login(t.app, await buildUser(t.app, c.id, { profile: "admin", super: true }));
  const [plan] = await t.app.charla.db.select().from(plans).where(eq(plans.id, c.planId));
  const res = await call(sup, "PUT", `/plans/${c.planId}`, { name: plan.name, ...limits, [area]: 1 });
  expect(res.statusCode).toBe(200);
  expect(res.json()[area]).toBe(1);
  return { c, admin: await login(t.app, c.admin) };
}

describe("#plan limits after lowering a plan", () => {
  it("users: the company keeps every user (who still log in); a new one answers 403 ERR_USER_LIMIT_REACHED", async () => {
    let extra: Awaited<ReturnType<typeof buildUser>>[] = [];
    const { c, admin } = await lowered("users", async (co) => {
      extra = [await buildUser(t.app, co.id), await buildUser(t.app, co.id)];
    });
    const form = { name: "Ana Pérez", email: `ana-${uid()}@test.charla`, password: "clave-123", profile: "user" };
    expectError(await call(admin, "POST", "/users", form), 403, "ERR_USER_LIMIT_REACHED");
    expect(await t.app.charla.db.select().from(users).where(eq(users.companyId, c.id))).toHaveLength(4);
    for (const u of extra) expect((await login(t.app, u)).companyId).toBe(c.id);
    // an existing user is still edited
    expect(
      (await call(admin, "PUT", `/users/${extra[0].id}`, { ...form, email: extra[0].email, name: "Otro Nombre" })).statusCode,
    ).toBe(200);
  });

  it("connections: every connection stays; a new one answers 403 ERR_CONNECTION_LIMIT_REACHED", async () => {
    const { c, admin } = await lowered("connections", async (co) => {
      const s = await login(t.app, co.admin);
      for (const name of ["Uno", "Dos", "Tres"])
        expect((await call(s, "POST", "/whatsapp", { name, number: "+52 1 55 1234 5678" })).statusCode).toBe(201);
    });
    expectError(
      await call(admin, "POST", "/whatsapp", { name: "Cuatro", number: "+52 1 55 1234 5678" }),
      403,
      "ERR_CONNECTION_LIMIT_REACHED",
    );
    const rows = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.companyId, c.id));
    expect(rows.map((r) => r.name).sort()).toEqual(["Dos", "Tres", "Uno"]);
  });

  it("areas: every area stays; a new one answers 403 ERR_QUEUE_LIMIT_REACHED", async () => {
    const { c, admin } = await lowered("queues", async (co) => {
      const s = await login(t.app, co.admin);
      for (let i = 0; i < 3; i++)
        expect(
          (await call(s, "POST", "/queue", { name: `Área ${uid()}`, color: `#${uid().slice(0, 6)}`, greetingMessage: "Hola" }))
            .statusCode,
        ).toBeLessThan(300);
    });
    expectError(await call(admin, "POST", "/queue", { name: `Área ${uid()}`, color: "#abcdef" }), 403, "ERR_QUEUE_LIMIT_REACHED");
    expect(await t.app.charla.db.select().from(queues).where(eq(queues.companyId, c.id))).toHaveLength(3);
  });

  it("each limit's code has its es, pt and en text", () => {
    for (const code of ["ERR_USER_LIMIT_REACHED", "ERR_CONNECTION_LIMIT_REACHED", "ERR_QUEUE_LIMIT_REACHED"]) {
      if (!isErrorCode(code)) throw new Error(`${code} is not in the catalogue`);
      const entry = ErrorCatalogue[code];
      expect(entry.status).toBe(403);
      for (const lang of ["es", "pt", "en"] as const) expect(entry[lang], `${code} ${lang}`).toMatch(/\S{3}/);
    }
  });
});
