import type { PlanFlagSet } from "@charla/contracts";
import type { plans } from "../db/schema/index.js";
import { AppError } from "../lib/app-error.js";

export const today = () => new Date().toISOString().slice(0, 10);

/** A company may be used when active and not past its due date; super users are never locked out. */
export function assertCompanyUsable(company: { status: boolean; dueDate: string | null }, isSuper: boolean): void {
  if (isSuper) return;
  if (!company.status) throw new AppError("ERR_COMPANY_INACTIVE");
  if (company.dueDate && company.dueDate < today()) {
    const [y, m, d] = company.dueDate.split("-");
    throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { data: { dueDate: company.dueDate, date: `${d}/${m}/${y}` } });
  }
}

/** The same rule as a yes/no, for those that act on it rather than refuse (e.g. ending open sockets). */
export function companyUsable(company: { status: boolean; dueDate: string | null }): boolean {
  try {
    assertCompanyUsable(company, false);
    return true;
  } catch {
    return false;
  }
}

/** The plan's switches the permission table reads (a company without a plan has none). */
export function planFlags(p: typeof plans.$inferSelect | null): PlanFlagSet | null {
  if (!p) return null;
  return {
    useCampaigns: p.useCampaigns,
    useKanban: p.useKanban,
    useOpenAi: p.useOpenAi,
    useIntegrations: p.useIntegrations,
    useSchedules: p.useSchedules,
    useInternalChat: p.useInternalChat,
    useExternalApi: p.useExternalApi,
  };
}
