import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { as, buildCompany, buildUser, login, type Session } from "../../test/factories.js";
import { expectError, uid } from "../../test/http.js";

const MAX = 3;
const COMPANY_MAX = 6;
const PASSWORD = "una-clave-secreta-123";
const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  t = await getTestApp({ emailTakenMaxPerUser: MAX, emailTakenMaxPerCompany: COMPANY_MAX });
  // the same database, with a logger whose lines the test reads
  app = await buildApp({ ...t.config, logLevel: "info" }, { database: t.database, seed: false, logStream });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const createUser = (s: Session, email: string) =>
  as(app, s, { method: "POST", url: "/api/v1/users", payload: { name: "Nuevo", email, password: PASSWORD, profile: "user" } });
const probes = () =>
  lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === "email already registered");

describe("#users ERR_EMAIL_ALREADY_EXISTS is rate-limited per user and logged", () => {
  it("answers it MAX times a window; then every create is 429 (a free address too), per user, and each answer is logged", async () => {
    const elsewhere = await buildCompany(app);
    const a = await buildCompany(app);
    const s = await login(app, a.admin);
    for (let i = 0; i < MAX; i++) expectError(await createUser(s, elsewhere.admin.email), 409, "ERR_EMAIL_ALREADY_EXISTS");
    expectError(await createUser(s, elsewhere.admin.email), 429, "ERR_RATE_LIMITED");
    // a free address is refused alike: the answer no longer tells which addresses exist
    expectError(await createUser(s, `libre-${uid()}@test.charla`), 429, "ERR_RATE_LIMITED");
    // another user of the same company has a count of their own
    const other = await login(app, await buildUser(app, a.id, { profile: "admin" }));
    expectError(await createUser(other, elsewhere.admin.email), 409, "ERR_EMAIL_ALREADY_EXISTS");

    const logged = probes().filter((r) => r.userId === a.admin.id);
    expect(logged).toHaveLength(MAX);
    expect(logged[0]).toMatchObject({ userId: a.admin.id, companyId: a.id, level: 40 });
    for (const line of lines) expect(line).not.toContain(PASSWORD);
  });

  it("a company's users share a limit: a new agent per few probes does not multiply it", async () => {
    const elsewhere = await buildCompany(app);
    const a = await buildCompany(app);
    let answered = 0;
    for (let round = 0; round < 3; round++) {
      // the admin makes a fresh agent, who spends their own allowance
      const agent = await buildUser(app, a.id, { profile: "admin" });
      const s = await login(app, agent);
      for (let i = 0; i < MAX; i++) {
        const res = await createUser(s, elsewhere.admin.email);
        if (res.statusCode === 409) answered += 1;
        else expectError(res, 429, "ERR_RATE_LIMITED");
      }
    }
    expect(answered).toBe(COMPANY_MAX);
    // another company is not held back by this one
    const b = await buildCompany(app);
    expectError(await createUser(await login(app, b.admin), elsewhere.admin.email), 409, "ERR_EMAIL_ALREADY_EXISTS");
  });

  it("creations that succeed, or fail for another reason, are not counted", async () => {
    const a = await buildCompany(app);
    const s = await login(app, a.admin);
    for (let i = 0; i < MAX + 2; i++) expect((await createUser(s, `nuevo-${uid()}@test.charla`)).statusCode).toBe(201);
    for (let i = 0; i < MAX + 2; i++) {
      const res = await as(app, s, {
        method: "POST",
        url: "/api/v1/users",
        payload: { name: "Nuevo", email: `x-${uid()}@test.charla`, password: PASSWORD, profile: "user", queueIds: [987654] },
      });
      expectError(res, 404, "ERR_NO_QUEUE_FOUND");
    }
    expect((await createUser(s, `otro-${uid()}@test.charla`)).statusCode).toBe(201);
  });

  it("counts a change of one's own email to a taken address the same way", async () => {
    const elsewhere = await buildCompany(app);
    const a = await buildCompany(app);
    const agent = await buildUser(app, a.id, { profile: "user" });
    const s = await login(app, agent);
    const rename = (email: string) =>
      as(app, s, { method: "PUT", url: `/api/v1/users/${agent.id}`, payload: { name: agent.name, email } });
    // renaming oneself without touching the email is never limited
    for (let i = 0; i < MAX + 1; i++) expect((await rename(agent.email)).statusCode).toBe(200);
    for (let i = 0; i < MAX; i++) expectError(await rename(elsewhere.admin.email), 409, "ERR_EMAIL_ALREADY_EXISTS");
    expectError(await rename(elsewhere.admin.email), 429, "ERR_RATE_LIMITED");
    expectError(await rename(`libre-${uid()}@test.charla`), 429, "ERR_RATE_LIMITED");
    expect((await rename(agent.email)).statusCode).toBe(200);
    expect(probes().filter((r) => r.userId === agent.id)).toHaveLength(MAX);
  });
});
