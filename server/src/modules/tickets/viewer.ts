import { eq } from "drizzle-orm";
import type { Principal } from "../../context.js";
import type { Scoped } from "../../db/scoped.js";
import { userQueues, users } from "../../db/schema/index.js";
import { gather } from "../../db/gather.js";
import { areaConnectionIdsOf } from "../../policies/tickets.js";

/**
 * The facts ticket visibility is decided on (core §6): the principal plus queues, allTicket and the
 * connections that serve those queues (the chatbot's tickets at the area choice, issue 26).
 */
export type Viewer = Pick<Principal, "id" | "name" | "profile" | "super"> & {
  allTicket: string;
  queueIds: number[];
  areaConnectionIds: number[];
  whatsappId: number | null;
};

export { isStaff } from "../../policies/tickets.js";

export async function loadViewer(q: Scoped, p: Principal): Promise<Viewer> {
  if (p.ticketFacts) {
    const { id, name, profile, super: isSuper } = p;
    return { id, name, profile, super: isSuper, ...p.ticketFacts };
  }
  const [[row], queueRows] = await gather(q.db, [
    () =>
      q.db
        .select({ allTicket: users.allTicket, whatsappId: users.whatsappId, areaConnectionIds: areaConnectionIdsOf() })
        .from(users)
        .where(q.users.where(eq(users.id, p.id))),
    () =>
      q.db
        .select({ queueId: userQueues.queueId })
        .from(userQueues)
        .where(q.userQueues.where(eq(userQueues.userId, p.id))),
  ]);
  return {
    id: p.id,
    name: p.name,
    profile: p.profile,
    super: p.super,
    allTicket: row?.allTicket ?? "disable",
    whatsappId: row?.whatsappId ?? null,
    queueIds: queueRows.map((r) => r.queueId),
    areaConnectionIds: row?.areaConnectionIds ?? [],
  };
}
