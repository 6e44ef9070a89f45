import { PlanFlags } from "@charla/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../test/app.js";
import { as, buildCompany, buildUser, login } from "../test/factories.js";

/** The gate itself: routes declaring a plan-gated permission answer 403 when the plan lacks the flag. */
const gated = {
  useKanban: "kanban.use",
  useSchedules: "schedules.use",
  useInternalChat: "internal-chat.use",
  useCampaigns: "campaigns.use",
  useExternalApi: "external-api.view",
  useOpenAi: "prompts.manage",
  useIntegrations: "integrations.manage",
} as const;

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp({}, undefined, (app) => {
    app.register(
      async (api) => {
        for (const [flag, permission] of Object.entries(gated)) {
          api.get(`/gate-probe/${flag}`, { config: { permission } }, async () => ({ ok: true }));
        }
      },
      { prefix: "/api/v1" },
    );
  });
});
afterAll(() => t.close());

describe("permission gate", () => {
  it("refuses every plan-gated area with 403 ERR_NO_PERMISSION when the plan lacks its flag", async () => {
    const none = Object.fromEntries(PlanFlags.map((f) => [f, false]));
    const all = Object.fromEntries(PlanFlags.map((f) => [f, true]));
    const poor = await buildCompany(t.app, { plan: none });
    const rich = await buildCompany(t.app, { plan: all });
    const poorSession = await login(t.app, poor.admin);
    const richSession = await login(t.app, rich.admin);
    for (const flag of PlanFlags) {
      const url = `/api/v1/gate-probe/${flag}`;
      const refused = await as(t.app, poorSession, { method: "GET", url });
      expect(refused.statusCode, flag).toBe(403);
      expect(refused.json()).toMatchObject({ error: "ERR_NO_PERMISSION", data: { reason: "plan" } });
      expect((await as(t.app, richSession, { method: "GET", url })).statusCode, flag).toBe(200);
    }
  });

  it("refuses admin-only areas to agents even on a full plan", async () => {
    const c = await buildCompany(t.app, { plan: Object.fromEntries(PlanFlags.map((f) => [f, true])) });
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    const res = await as(t.app, agent, { method: "GET", url: "/api/v1/gate-probe/useOpenAi" });
    expect(res.statusCode).toBe(403);
    expect(res.json().data.reason).toBe("profile");
    expect((await as(t.app, agent, { method: "GET", url: "/api/v1/gate-probe/useKanban" })).statusCode).toBe(200);
  });

  it("checks authentication before validation: anonymous callers get 401, not a validation error", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/users", payload: { name: "x" } });
    expect(res.statusCode).toBe(401);
  });

  it("every /api route declares public, authenticated or a permission", () => {
    for (const r of t.app.routeTable) {
      const marks = [r.config.public, r.config.authenticated, r.config.permission].filter(Boolean);
      expect(marks.length, `${r.method} ${r.url}`).toBe(1);
    }
  });

  it("refuses to boot a route without a declaration", async () => {
    await expect(
      getTestApp({}, t.database, (app) => {
        app.get("/api/v1/undeclared", async () => ({}));
      }),
    ).rejects.toThrow(/must declare/);
  });
});
