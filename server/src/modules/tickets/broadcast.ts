import type { TicketView } from "@charla/contracts";
import type { DomainEvent } from "../../events/index.js";
import type { Scoped } from "../../db/scoped.js";
import type { tickets } from "../../db/schema/index.js";
import { ticketAudience } from "../../policies/tickets.js";
import { presentTicketsWithAudience } from "./presenter.js";
import { gather } from "../../db/gather.js";

type TicketRow = typeof tickets.$inferSelect;
type Facts = Pick<TicketRow, "userId" | "queueId" | "status" | "chatbot" | "whatsappId">;

/**
 * What to tell whom after a ticket changed: `update` to everyone who may see it now, `delete` to those
 * who could see it before and no longer can (their lists drop it). Computed inside the transaction, for
 * its `publish` (db/tx.ts), which sends it once the change is committed.
 */
export async function ticketChangeBroadcast(
  q: Scoped,
  before: Facts | null,
  after: TicketRow,
): Promise<{ view: TicketView; event: DomainEvent<"ticket.changed"> }> {
  const [[{ view, audience: now }], then] = await gather(q.db, [
    () => presentTicketsWithAudience(q, [after]),
    () => (before ? ticketAudience(q, before) : Promise.resolve([])),
  ]);
  const lost = then.filter((id) => !now.includes(id));
  return { view, event: { type: "ticket.changed", companyId: q.companyId, ticket: view, audience: now, lost } };
}
