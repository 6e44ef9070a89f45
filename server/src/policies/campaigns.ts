import { can, type Permission, type Profile } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { companies, plans, users } from "../db/schema/index.js";
import { planFlags } from "./company.js";

/**
 * Who hears of contact lists, their items and campaigns: the users the campaign areas are for
 * (campaigns.use: staff profiles on a plan with useCampaigns). Agents never get customers' lists
 * through their sockets. Another rule (files.manage) names the audience of an area beside them.
 */
export async function campaignAudience(q: Scoped, rule: Permission = "campaigns.use"): Promise<number[]> {
  const rows = await q.db
    .select({ id: users.id, profile: users.profile, super: users.super, plan: plans })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(q.users.where());
  return rows
    .filter((u) => can({ profile: u.profile as Profile, super: u.super, plan: planFlags(u.plan) }, rule))
    .map((u) => u.id);
}
