import * as z from "zod/mini";
import type { PlanFlagSet, Profile } from "./permissions.js";
import type { SettingView } from "./setting-definitions.js";
import { isStorableText, V } from "./text-rules.js";
import type { QueueRef } from "./users.js";

/**
 * Login form (core §5): values trimmed, email lower-cased. Written with zod/mini, the same engine as
 * the other schemas (`text().trim().min()` there is `string().check(refine, trim, minLength)` here, in
 * the same order): the login page is the web's first screen and carries only this schema, ~5 KB of
 * zod as sent instead of the full API's ~20 KB (issue 9).
 */
const loginText = (max: number, ...checks: z.core.$ZodCheck<string>[]) =>
  z
    .string({ error: V.required })
    .check(z.refine(isStorableText, V.invalidText), z.trim(), ...checks, z.minLength(1, V.required), z.maxLength(max, V.tooLong));

export const LoginForm = z.object({
  email: loginText(120, z.toLowerCase()),
  password: loginText(100),
});
export type LoginForm = z.input<typeof LoginForm>;

/** The logged-in user as login, refresh and /auth/me return it. */
export type SessionUser = {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  allTicket: "enable" | "disable";
  whatsappId: number | null;
  profileImage: string | null;
  queues: QueueRef[];
  company: {
    id: number;
    name: string;
    dueDate: string | null;
    /** IANA zone every date and hour of the web is shown in, whatever the browser's (secondary §9). */
    timeZone: string;
    primaryColor: string;
    headerColor: string;
    pageTitle: string;
    /** Whether the company uploaded a logo: the web asks for `/companies/{id}/logo` only then. */
    logo: boolean;
    plan: (PlanFlagSet & { id: number; name: string }) | null;
    settings: SettingView[];
  };
};

export type AuthResponse = { token: string; user: SessionUser };
