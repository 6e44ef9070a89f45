import { desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Scoped } from "../db/scoped.js";
import { tickets, ticketTracking } from "../db/schema/index.js";

/** A ticket closed less than this long ago is reopened instead of starting a new one (behaviours §6). */
export const REOPEN_WINDOW_MS = 2 * 60 * 60 * 1000;

type TicketRow = typeof tickets.$inferSelect;

/**
 * The ticket an inbound message belongs to, first match wins: the contact's live ticket on this
 * connection; one closed less than 2 h ago, reopened as pending with user and queue cleared; else a new
 * pending ticket with a new tracking episode. The row comes back locked for the rest of the transaction.
 */
export async function ticketForInbound(
  q: Scoped,
  contact: { id: number; isGroup: boolean },
  whatsappId: number,
  /** Typed on the company's own phone: recorded, but it does not reopen a closed conversation. */
  fromMe = false,
  /** false: a closed ticket is not taken up again (a rating given up on: the message is a new conversation). */
  { reopen = true }: { reopen?: boolean } = {},
): Promise<{ ticket: TicketRow; created: boolean; reopened: boolean }> {
  const live = await findLive(q, contact.id, whatsappId);
  if (live) return { ticket: live, created: false, reopened: false };
  if (!reopen) return createTicket(q, contact, whatsappId);

  // "closed less than 2 h ago" is read from when its last episode finished: updatedAt moves with
  // any later write (tags, a no-op save) and would stretch the window
  const closedAt = sql`(select max(${ticketTracking.finishedAt}) from ${ticketTracking}
    where ${ticketTracking.companyId} = ${q.companyId} and ${ticketTracking.ticketId} = ${tickets.id})`;
  const [recent] = await q.db
    .select()
    .from(tickets)
    .where(
      q.tickets.where(
        eq(tickets.contactId, contact.id),
        eq(tickets.whatsappId, whatsappId),
        eq(tickets.status, "closed"),
        gt(closedAt, new Date(Date.now() - REOPEN_WINDOW_MS)),
      ),
    )
    .orderBy(desc(tickets.id))
    .limit(1)
    .for("update");
  if (recent && fromMe) return { ticket: recent, created: false, reopened: false };
  if (recent) return { ticket: await reopenTicket(q, recent.id, whatsappId), created: false, reopened: true };
  return createTicket(q, contact, whatsappId);
}

async function createTicket(q: Scoped, contact: { id: number; isGroup: boolean }, whatsappId: number) {
  // the partial unique index allows one live ticket per contact and connection: a concurrent
  // message that created it first wins, and this one joins its ticket
  const [created] = await q.db
    .insert(tickets)
    .values({ companyId: q.companyId, contactId: contact.id, whatsappId, status: "pending", isGroup: contact.isGroup })
    .onConflictDoNothing()
    .returning();
  if (created) {
    await startEpisode(q, created.id, whatsappId);
    return { ticket: created, created: true, reopened: false };
  }
  const raced = await findLive(q, contact.id, whatsappId);
  if (!raced) throw new Error("live ticket vanished during inbound");
  return { ticket: raced, created: false, reopened: false };
}

/**
 * A closed ticket back to pending for whoever takes it (user and queue cleared), with a new tracking
 * episode; the chatbot starts over with it (a rating it waited for is no longer asked).
 */
export async function reopenTicket(q: Scoped, ticketId: number, whatsappId: number): Promise<TicketRow> {
  const reopened = await q.tickets.update(ticketId, {
    status: "pending",
    userId: null,
    queueId: null,
    chatbot: false,
    queueOptionId: null,
    botListCount: 0,
    botListAt: null,
    awaitingRating: false,
    ratingAsks: 0,
  });
  await startEpisode(q, ticketId, whatsappId);
  return reopened as TicketRow;
}

async function findLive(q: Scoped, contactId: number, whatsappId: number) {
  const [row] = await q.db
    .select()
    .from(tickets)
    .where(
      q.tickets.where(
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        inArray(tickets.status, ["open", "pending"]),
      ),
    )
    .limit(1)
    .for("update");
  return row ?? null;
}

async function startEpisode(q: Scoped, ticketId: number, whatsappId: number) {
  await q.ticketTracking.insert({ ticketId, whatsappId, queuedAt: new Date() });
}
