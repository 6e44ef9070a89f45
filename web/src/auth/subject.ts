import type { SessionUser, Subject } from "@charla/contracts";

/** What the permission table judges: a user's profile, super flag and plan. Without React (pages/tickets/prefetch.ts). */
export function subjectOf(user: SessionUser): Subject {
  return { profile: user.profile, super: user.super, plan: user.company.plan };
}
