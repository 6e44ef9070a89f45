import { can, type Permission, type PlanFlag, type Subject } from "@charla/contracts";
import { useAuth } from "./context";
import { subjectOf } from "./subject";

export { subjectOf };

/** What a route, a menu item or a tab asks for: any one of the rules, and the plan flag when given. */
export type Access = { anyOf?: readonly Permission[]; planFlag?: PlanFlag };

export function canAccess(subject: Subject | null, access: Access | undefined): boolean {
  if (!access) return true;
  if (!subject) return false;
  if (access.anyOf && !access.anyOf.some((rule) => can(subject, rule))) return false;
  if (access.planFlag && !subject.plan?.[access.planFlag]) return false;
  return true;
}

export function useSubject(): Subject | null {
  const { user } = useAuth();
  return user ? subjectOf(user) : null;
}

/** core §6 through the shared table: the same rule the API enforces decides what is shown. */
export function usePermission(rule: Permission): boolean {
  const subject = useSubject();
  return subject !== null && can(subject, rule);
}

export function useAccess(access: Access | undefined): boolean {
  return canAccess(useSubject(), access);
}
