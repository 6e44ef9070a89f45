import type { Profile, UserCreateForm, UserUpdateForm, UserView } from "@charla/contracts";

export type UserFormValues = {
  name: string;
  email: string;
  password: string;
  /** Asked when users change their own password (the API checks it). */
  currentPassword: string;
  profile: Profile;
  super: boolean;
  queueIds: number[];
  whatsappId: number | null;
  allTicket: "enable" | "disable";
};

/** Which optional parts of the modal the current user may see and send (core §2 User modal, §6). */
export type UserFormRights = { profile: boolean; queues: boolean; super: boolean };

export function formValuesOf(user?: UserView): UserFormValues {
  return {
    name: user?.name ?? "",
    email: user?.email ?? "",
    password: "",
    currentPassword: "",
    profile: user?.profile ?? "user",
    super: user?.super ?? false,
    queueIds: user?.queues.map((queue) => queue.id) ?? [],
    whatsappId: user?.whatsappId ?? null,
    allTicket: user?.allTicket ?? "disable",
  };
}

/**
 * Only what the user may change is sent: a plain user editing themselves sends name, email and
 * password, which the API accepts from anyone. An empty password on edit means "keep it".
 */
export function payloadOf(values: UserFormValues, rights: UserFormRights): UserCreateForm | UserUpdateForm {
  const payload: UserUpdateForm = { name: values.name, email: values.email };
  if (values.password) payload.password = values.password;
  if (values.password && values.currentPassword) payload.currentPassword = values.currentPassword;
  if (rights.profile) {
    payload.profile = values.profile;
    payload.allTicket = values.allTicket;
  }
  if (rights.queues) {
    payload.queueIds = values.queueIds;
    payload.whatsappId = values.whatsappId;
  }
  if (rights.super) payload.super = values.super;
  return payload;
}
