import type { SessionUser, UserView } from "@charla/contracts";

/** The parts of a user record that the session copy also holds (own edits, live updates). */
export function sessionPatchOf(user: UserView): Partial<SessionUser> {
  const { name, email, profile, super: isSuper, profileImage, allTicket, whatsappId, queues } = user;
  return { name, email, profile, super: isSuper, profileImage, allTicket, whatsappId, queues };
}
