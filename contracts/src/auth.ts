import { z } from "zod";
import { V, text } from "./common.js";
import type { PlanFlagSet, Profile } from "./permissions.js";
import type { SettingView } from "./settings.js";
import type { QueueRef } from "./users.js";

/** Login form (core §5): values trimmed, email lower-cased. */
export const LoginForm = z.object({
  email: text({ error: V.required }).trim().toLowerCase().min(1, V.required).max(120, V.tooLong),
  password: text({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong),
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
