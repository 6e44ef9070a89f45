import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { type messages, tickets } from "../../db/schema/index.js";
import { ticketAudience } from "../../policies/tickets.js";
import { presentTickets } from "../tickets/presenter.js";
import { presentMessages } from "./presenter.js";

type MessageRow = typeof messages.$inferSelect;

/** A changed message (ack, deletion, edit) to everyone who may see its ticket. */
export async function publishMessageUpdate(s: Services, companyId: number, rows: MessageRow[]): Promise<void> {
  const q = scoped(s.db, companyId);
  for (const row of rows) {
    const [ticket] = await q.db
      .select()
      .from(tickets)
      .where(q.tickets.where(eq(tickets.id, row.ticketId)));
    if (!ticket) continue;
    const [[message], [ticketView], audience] = await Promise.all([
      presentMessages(q, [row]),
      presentTickets(q, [ticket]),
      ticketAudience(q, ticket),
    ]);
    s.realtime.toUsers(companyId, audience).emit(Events.appMessage(companyId), { action: "update", message, ticket: ticketView });
  }
}
