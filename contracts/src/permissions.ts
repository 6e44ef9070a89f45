/**
 * Who may do what (core §6). One table read by the API (route gate) and by the web (menus, buttons).
 * A rule names the profiles that hold it, optionally requires the super flag and/or a plan flag.
 */
export const Profiles = ["admin", "user", "subadmin", "supervisor"] as const;
export type Profile = (typeof Profiles)[number];

export const PlanFlags = [
  "useCampaigns",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
] as const;
export type PlanFlag = (typeof PlanFlags)[number];
export type PlanFlagSet = Record<PlanFlag, boolean>;

type Rule = { profiles: readonly Profile[] | "all"; super?: true; plan?: PlanFlag };

const STAFF = ["admin", "subadmin", "supervisor"] as const;

const rules = {
  // named rules of core §6
  "connections-page:addConnection": { profiles: STAFF },
  "connections-page:actionButtons": { profiles: STAFF },
  "connections-page:editOrDeleteConnection": { profiles: STAFF },
  "user-modal:editProfile": { profiles: STAFF },
  "user-modal:editQueues": { profiles: STAFF },
  "contacts-page:deleteContact": { profiles: STAFF },
  "tickets-manager:showall": { profiles: ["admin"] },
  "tag-modal:kanban": { profiles: ["admin", "supervisor"] },
  "drawer-admin-items:view": { profiles: STAFF },
  "dashboard:view": { profiles: ["admin", "subadmin"] },
  "user-modal:editSuper": { profiles: "all", super: true },
  // API areas
  "users.list": { profiles: "all" },
  "users.manage": { profiles: STAFF },
  "settings.read": { profiles: "all" },
  "settings.write": { profiles: ["admin"] },
  "companies.manage": { profiles: "all", super: true },
  "companies.read-own": { profiles: "all" },
  "plans.manage": { profiles: "all", super: true },
  "queues.list": { profiles: "all" },
  /** The Areas page (core §2 routes: admin, subadmin): queues, their option trees and hours. */
  "queues.manage": { profiles: ["admin", "subadmin"] },
  "contacts.use": { profiles: "all" },
  "tickets.use": { profiles: "all" },
  "tickets.delete": { profiles: ["admin"] },
  "tickets.transfer": { profiles: ["admin"] },
  /** Create a ticket without a queue (core §6). */
  "tickets.no-queue": { profiles: ["admin"] },
  /** Read-only look at any conversation from the list (core §2). */
  "tickets.peek": { profiles: ["admin"] },
  "messages.sign": { profiles: ["admin"] },
  "tags.use": { profiles: "all" },
  "quick-messages.use": { profiles: "all" },
  /** Changing or deleting a shared quick reply someone else wrote (policies/quick-messages.ts). */
  "quick-messages.manage-shared": { profiles: STAFF },
  "simulator.use": { profiles: ["admin"] },
  "connections.list": { profiles: "all" },
  "helps.view": { profiles: "all" },
  /** The Ayuda tab: help videos are platform data, shown to every company (secondary §6). */
  "helps.manage": { profiles: "all", super: true },
  "announcements.manage": { profiles: "all", super: true },
  /** The top bar's bell: every user of every company reads the active announcements (platform-wide). */
  "announcements.read": { profiles: "all" },
  "financeiro.view": { profiles: "all", super: true },
  /** GET /invoices: a company's admin reads their own company's invoices; a super user every company's. */
  "invoices.read": { profiles: ["admin"] },
  /** POST /subscription: an instant-payment charge for an invoice of the admin's company (super: any). */
  "invoices.pay": { profiles: ["admin"] },
  "kanban.use": { profiles: "all", plan: "useKanban" },
  "schedules.use": { profiles: "all", plan: "useSchedules" },
  "internal-chat.use": { profiles: "all", plan: "useInternalChat" },
  "campaigns.use": { profiles: STAFF, plan: "useCampaigns" },
  /** File lists (/files): an administration item of core §6, used by campaigns. */
  "files.manage": { profiles: STAFF },
  /** The company's one-off background work: dead jobs seen and retried (docs/jobs.md). */
  "jobs.manage": { profiles: ["admin"] },
  /** A number of a contact list goes by the contacts page's rule (secondary §6), inside the campaign areas. */
  "contact-lists.delete-item": { profiles: STAFF, plan: "useCampaigns" },
  "external-api.view": { profiles: ["admin"], plan: "useExternalApi" },
  "prompts.manage": { profiles: ["admin"], plan: "useOpenAi" },
  "integrations.manage": { profiles: ["admin"], plan: "useIntegrations" },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof rules;
export const PermissionRules: Record<Permission, Rule> = rules;
export const permissionNames = Object.keys(rules) as Permission[];

/** The facts a rule is decided on; the API builds it from the token's user, the web from the session. */
export type Subject = { profile: Profile; super: boolean; plan: Partial<PlanFlagSet> | null };

/** Which rule failed, so the API can answer with the right reason; null means allowed. */
export function denialOf(subject: Subject, permission: Permission): "profile" | "super" | "plan" | null {
  const rule: Rule = rules[permission];
  if (rule.super && !subject.super) return "super";
  if (rule.profiles !== "all" && !rule.profiles.includes(subject.profile)) return "profile";
  if (rule.plan && !subject.plan?.[rule.plan]) return "plan";
  return null;
}

export function can(subject: Subject, permission: Permission): boolean {
  return denialOf(subject, permission) === null;
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && Object.hasOwn(rules, value);
}
