import { describe, expect, it } from "vitest";
import { type PlanFlagSet, type Profile, can, denialOf, permissionNames } from "./permissions.js";

const allPlan: PlanFlagSet = {
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};
const as = (profile: Profile, isSuper = false, plan: Partial<PlanFlagSet> = allPlan) => ({ profile, super: isSuper, plan });

describe("permission table (core §6)", () => {
  it("gives the named connection, user-modal and contact rules to admins and supervisors, not to agents", () => {
    const named = [
      "connections-page:addConnection",
      "connections-page:actionButtons",
      "connections-page:editOrDeleteConnection",
      "user-modal:editProfile",
      "user-modal:editQueues",
      "contacts-page:deleteContact",
    ] as const;
    for (const rule of named) {
      expect(can(as("admin"), rule)).toBe(true);
      expect(can(as("subadmin"), rule)).toBe(true);
      expect(can(as("supervisor"), rule)).toBe(true);
      expect(can(as("user"), rule)).toBe(false);
    }
  });

  it("keeps show-all tickets for admins and the super-only areas for super users", () => {
    expect(can(as("admin"), "tickets-manager:showall")).toBe(true);
    expect(can(as("subadmin"), "tickets-manager:showall")).toBe(false);
    for (const rule of ["companies.manage", "plans.manage", "announcements.manage", "user-modal:editSuper"] as const) {
      expect(denialOf(as("admin"), rule)).toBe("super");
      expect(can(as("user", true), rule)).toBe(true);
    }
  });

  it("refuses plan-gated areas when the plan lacks the flag, whatever the profile", () => {
    const gated = {
      "kanban.use": "useKanban",
      "schedules.use": "useSchedules",
      "internal-chat.use": "useInternalChat",
      "campaigns.use": "useCampaigns",
      "external-api.view": "useExternalApi",
      "prompts.manage": "useOpenAi",
      "integrations.manage": "useIntegrations",
    } as const;
    for (const [rule, flag] of Object.entries(gated) as [keyof typeof gated, keyof PlanFlagSet][]) {
      expect(can(as("admin"), rule)).toBe(true);
      expect(denialOf(as("admin", true, { ...allPlan, [flag]: false }), rule)).toBe("plan");
      expect(can(as("admin", false, {}), rule)).toBe(false);
    }
    expect(can(as("user"), "prompts.manage")).toBe(false);
  });

  it("has a rule for every name it exports", () => {
    expect(permissionNames.length).toBeGreaterThan(20);
    for (const p of permissionNames) expect(typeof can(as("admin", true), p)).toBe("boolean");
  });
});
