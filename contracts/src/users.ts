import { z } from "zod";
import { IdSchema, V, emailField, requiredName, text, looseBool, looseId, looseText } from "./common.js";
import { Limits } from "./limits.js";
import { Profiles, type Profile } from "./permissions.js";

const password = text().min(Limits.password.min, V.tooShort).max(Limits.password.max, V.tooLong);
// A new user's password left empty is missing, not short: "Requerido" before "¡Demasiado corto!".
const requiredPassword = text({ error: V.required }).min(1, V.required).pipe(password);

const userFields = {
  name: requiredName,
  email: emailField,
  profile: z.enum(Profiles, { error: V.required }),
  super: looseBool(),
  queueIds: z.array(IdSchema).max(500).optional(),
  whatsappId: looseId(),
  allTicket: z.enum(["enable", "disable"]).optional(),
};

/** User modal (core §2, §5): the same schema validates the form and the POST body. */
export const UserCreateForm = z.object({
  ...userFields,
  password: requiredPassword,
});
export type UserCreateForm = z.input<typeof UserCreateForm>;

/** Editing: password optional (5–50 when given; an empty string means "keep"), profile optional for those who may not edit it. */
export const UserUpdateForm = z.object({
  ...userFields,
  profile: userFields.profile.optional(),
  password: looseText(password),
  /** The editor's current password; required when users change their own (ERR_WRONG_PASSWORD when it is not theirs). */
  currentPassword: text().max(Limits.password.max, V.tooLong).optional(),
});
export type UserUpdateForm = z.input<typeof UserUpdateForm>;

/** Editing oneself (the "Perfil" modal): a new password needs the current one. */
export const OwnUserUpdateForm = UserUpdateForm.refine((u) => !u.password || !!u.currentPassword, {
  path: ["currentPassword"],
  error: V.required,
});
export type OwnUserUpdateForm = z.input<typeof OwnUserUpdateForm>;

/** PUT /users-company/{id}: a super admin moves a user to another company. */
export const UserCompanyForm = z.object({
  companyId: IdSchema,
  profile: z.enum(Profiles).optional(),
});

export type QueueRef = { id: number; name: string; color: string };

export type UserView = {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  allTicket: "enable" | "disable";
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  queues: QueueRef[];
  /** Path of the profile picture under the API, fetched with the token; null when none. */
  profileImage: string | null;
  online: boolean;
  createdAt: string;
  updatedAt: string;
};

export type UsersPage = { users: UserView[]; count: number; hasMore: boolean };
