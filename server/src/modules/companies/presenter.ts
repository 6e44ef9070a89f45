import type { CompanyView } from "@charla/contracts";
import type { companies, plans } from "../../db/schema/index.js";
import { presentPlan } from "../plans/routes.js";

export function presentCompany(c: typeof companies.$inferSelect, plan: typeof plans.$inferSelect | null): CompanyView {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    planId: c.planId,
    plan: plan ? presentPlan(plan) : null,
    status: c.status,
    dueDate: c.dueDate,
    recurrence: c.recurrence as CompanyView["recurrence"],
    primaryColor: c.primaryColor,
    headerColor: c.headerColor,
    pageTitle: c.pageTitle,
    phoneNotification: c.phoneNotification,
    createdAt: c.createdAt.toISOString(),
  };
}
