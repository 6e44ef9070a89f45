import type { CompanyView } from "@charla/contracts";
import type { companies, plans } from "../../db/schema/index.js";
import { presentPlan } from "../plans/routes.js";

export function presentCompany(
  c: typeof companies.$inferSelect,
  plan: typeof plans.$inferSelect | null,
  campaignsEnabled = false,
): CompanyView {
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
    billingName: c.billingName,
    addressZipCode: c.addressZipCode,
    addressStreet: c.addressStreet,
    addressState: c.addressState,
    addressCity: c.addressCity,
    addressDistrict: c.addressDistrict,
    campaignsEnabled,
    timeZone: c.timeZone,
    logo: c.logoPath !== null,
    createdAt: c.createdAt.toISOString(),
  };
}
