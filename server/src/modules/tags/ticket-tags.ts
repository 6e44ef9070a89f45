import type { TicketView } from "@charla/contracts";
import { type SQL, and, eq } from "drizzle-orm";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { tickets, ticketTags } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { ticketChangeBroadcast } from "../tickets/broadcast.js";
import { visibleTicket } from "../tickets/queries.js";
import { loadViewer, type Viewer } from "../tickets/viewer.js";

type TicketRow = typeof tickets.$inferSelect;
/** Which of the ticket's tags go (all without `drop`) and which it gets; throwing refuses before any write. */
export type TagChange = (q: Scoped, viewer: Viewer, ticket: TicketRow) => Promise<{ drop?: SQL; add: number[] }>;

/**
 * Rewrites the tags of a ticket the user may see, in one transaction, and tells everyone who sees the
 * ticket (the chat's tag picker, /tags/sync, and the kanban's moves share it).
 */
export function changeTicketTags(ctx: RequestCtx, ticketId: number, change: TagChange): Promise<TicketView> {
  return withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const viewer = await loadViewer(q, ctx.user);
    const ticket = await visibleTicket(q, viewer, { id: ticketId });
    const { drop, add } = await change(q, viewer, ticket);
    await q.tickets.lockById(ticket.id);
    await tx.delete(ticketTags).where(q.ticketTags.where(and(eq(ticketTags.ticketId, ticket.id), drop)));
    if (add.length)
      await tx.insert(ticketTags).values(add.map((tagId) => ({ companyId: q.companyId, ticketId: ticket.id, tagId })));
    const [updated] = await tx
      .update(tickets)
      .set({ updatedAt: ticket.updatedAt })
      .where(q.tickets.where(eq(tickets.id, ticket.id)))
      .returning();
    const broadcast = await ticketChangeBroadcast(q, ticket, updated);
    await publish(broadcast.event);
    return broadcast.view;
  });
}
