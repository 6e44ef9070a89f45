import { can } from "@charla/contracts";
import type { Principal } from "../context.js";
import { AppError } from "../lib/app-error.js";

type ReplyFacts = { userId: number | null };
type Changer = Pick<Principal, "id" | "profile" | "super" | "plan">;

/**
 * Who may change a quick reply they can see (edit it, make it private, attach or remove its file,
 * delete it): its author, or staff (quick-messages.manage-shared: admin, subadmin, supervisor). Every
 * agent uses the company's shared replies, but one agent taking a shared reply private would hide it
 * from everyone else, the admin included, and deleting it would take it from all of them.
 */
export function mayChangeQuickMessage(user: Changer, reply: ReplyFacts): boolean {
  return reply.userId === user.id || can(user, "quick-messages.manage-shared");
}

/** mayChangeQuickMessage or 403 ERR_NO_PERMISSION (the reply was found: visibility is checked first). */
export function authorizeQuickMessageChange(user: Changer, reply: ReplyFacts): void {
  if (!mayChangeQuickMessage(user, reply)) throw new AppError("ERR_NO_PERMISSION");
}
