import type { Profile, QueueRef, UserView } from "@charla/contracts";
import type { users } from "../../db/schema/index.js";

type UserRow = typeof users.$inferSelect;

export function profileImagePath(u: Pick<UserRow, "id" | "profileImage" | "updatedAt">): string | null {
  // the version query makes a new picture bypass the browser's cache
  return u.profileImage ? `/api/v1/users/${u.id}/profile-image?v=${u.updatedAt.getTime()}` : null;
}

export function presentUser(u: UserRow, extra: { queues: QueueRef[]; whatsapp: { id: number; name: string } | null }): UserView {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    profile: u.profile as Profile,
    super: u.super,
    companyId: u.companyId,
    allTicket: u.allTicket === "enable" ? "enable" : "disable",
    whatsappId: u.whatsappId,
    whatsapp: extra.whatsapp,
    queues: extra.queues,
    profileImage: profileImagePath(u),
    online: u.online,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}
