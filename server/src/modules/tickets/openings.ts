import { desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Scoped } from "../../db/scoped.js";
import { queues, tickets, ticketTracking, whatsappQueues } from "../../db/schema/index.js";
import { queueOrder } from "../queues/queries.js";
import { changeEpisode, startEpisode } from "./episodes.js";
import { type Moved, type TicketRow, type Within, announceChange } from "./transitions.js";

/** A ticket closed less than this long ago is reopened instead of starting a new one (behaviours §6). */
export const REOPEN_WINDOW_MS = 2 * 60 * 60 * 1000;

type ContactRef = { id: number; isGroup: boolean };

/**
 * The ticket a customer's message belongs to (behaviours: inbound path 6), first match wins: the
 * contact's live ticket on this connection; one closed less than 2 h ago, reopened as pending; else a
 * new pending ticket with a new episode. The row comes back locked for the rest of the transaction.
 * The inbound statement (pipeline/writer.ts) answers the first and the last case itself; this is the
 * transactional path's, for a closed ticket and the rest.
 */
export async function ticketForCustomer(
  q: Scoped,
  contact: ContactRef,
  whatsappId: number,
  /** Typed on the company's own phone: recorded, but it does not reopen a closed conversation. */
  fromMe = false,
  /** false: a closed ticket is not taken up again (a rating given up on: the message is a new conversation). */
  { reopen = true }: { reopen?: boolean } = {},
): Promise<{ ticket: TicketRow; created: boolean; reopened: boolean }> {
  const live = await findLive(q, contact.id, whatsappId);
  if (live) return { ticket: live, created: false, reopened: false };
  if (!reopen) return openForCustomer(q, contact, whatsappId);
  const recent = await recentlyClosed(q, contact.id, whatsappId);
  if (recent && fromMe) return { ticket: recent, created: false, reopened: false };
  if (recent) return { ticket: await reopenForCustomer(q, recent), created: false, reopened: true };
  return openForCustomer(q, contact, whatsappId);
}

async function openForCustomer(q: Scoped, contact: ContactRef, whatsappId: number) {
  // the partial unique index allows one live ticket per contact and connection: a concurrent message
  // that created it first wins, and this one joins its ticket
  const created = await insertLive(q, { contactId: contact.id, isGroup: contact.isGroup, whatsappId, status: "pending" });
  if (created) {
    await startEpisode(q, created.id, { whatsappId });
    return { ticket: created, created: true, reopened: false };
  }
  const raced = await findLive(q, contact.id, whatsappId);
  if (!raced) throw new Error("live ticket vanished during inbound");
  return { ticket: raced, created: false, reopened: false };
}

/**
 * A customer writes again to a ticket closed moments ago: pending for whoever takes it, a new episode,
 * a rating it waited for no longer asked. The bot starts over, its area and holder cleared — unless the
 * company started this conversation and closed it after its own message (the API's "send and close"):
 * then the answer waits in that area for its people, as the company's message asked.
 */
export async function reopenForCustomer(q: Scoped, closed: TicketRow): Promise<TicketRow> {
  const reopened = await q.tickets.update(closed.id, {
    status: "pending",
    userId: null,
    queueId: closed.startedByCompany ? closed.queueId : null,
    chatbot: false,
    queueOptionId: null,
    botListCount: 0,
    botListAt: null,
    awaitingRating: false,
    ratingAsks: 0,
  });
  await startEpisode(q, closed.id, { whatsappId: closed.whatsappId, queueId: reopened?.queueId ?? null });
  return reopened as TicketRow;
}

/**
 * Who a message the company starts is for (a schedule, the external API; docs/ticket-lifecycle.md):
 * its author when it has one, else the connection's area (its first in the bot's order), else nobody.
 */
type Starter = { author: { id: number } | null; whatsappId: number };

/**
 * The ticket a message the company starts goes to, made ready for it, in the caller's transaction. The
 * conversation is the company's (`startedByCompany`): no greeting, no menu, no automation answers it; the
 * customer's answer reaches the author (the ticket is theirs, open) or the connection's area (pending
 * there). So: a live ticket an agent holds stays theirs; a pending one (in the bot's hands, or waiting)
 * is taken by the author, or handed to its area's people; one closed less than 2 h ago is reopened so;
 * else a new ticket. `keepClosed` (the API's "send and close"): a ticket closed moments ago takes the
 * message and stays closed.
 */
export async function ticketForCompany(
  w: Within,
  contact: ContactRef,
  starter: Starter,
  { keepClosed = false }: { keepClosed?: boolean } = {},
): Promise<Moved | { ticket: TicketRow; view: null }> {
  const { q } = w;
  const live = await findLive(q, contact.id, starter.whatsappId);
  if (live) return takeLive(w, live, starter);
  const recent = await recentlyClosed(q, contact.id, starter.whatsappId);
  if (recent && keepClosed) return { ticket: recent, view: null };
  if (recent) {
    const patch = await companyPatch(w, recent, starter);
    const after = (await q.tickets.update(recent.id, { ...patch, awaitingRating: false, ratingAsks: 0 })) as TicketRow;
    await companyEpisode(q, after);
    return announceChange(w, recent, after);
  }
  const area = starter.author ? null : await connectionArea(q, starter.whatsappId);
  const created = await insertLive(q, {
    contactId: contact.id,
    isGroup: contact.isGroup,
    whatsappId: starter.whatsappId,
    status: starter.author ? "open" : "pending",
    userId: starter.author?.id ?? null,
    queueId: area,
    startedByCompany: true,
  });
  if (!created) {
    // a customer's message opened it a moment ago: it is live now
    const raced = await findLive(q, contact.id, starter.whatsappId);
    if (!raced) throw new Error("live ticket vanished");
    return takeLive(w, raced, starter);
  }
  await companyEpisode(q, created);
  return announceChange(w, null, created);
}

/** The company's conversation begins an episode: queued now, and started now when its author holds it. */
function companyEpisode(q: Scoped, t: TicketRow) {
  return startEpisode(q, t.id, {
    whatsappId: t.whatsappId,
    queueId: t.queueId,
    userId: t.userId,
    startedAt: t.userId ? new Date() : null,
  });
}

/** A live ticket for the company's message: an agent's stays theirs; a pending one becomes the company's. */
async function takeLive(w: Within, live: TicketRow, starter: Starter): Promise<Moved | { ticket: TicketRow; view: null }> {
  if (live.status === "open" && live.userId !== null) return { ticket: live, view: null };
  const patch = await companyPatch(w, live, starter);
  const changed = (Object.keys(patch) as (keyof typeof patch)[]).some((k) => patch[k] !== live[k]);
  if (!changed) return { ticket: live, view: null };
  const after = (await w.q.tickets.update(live.id, patch)) as TicketRow;
  await changeEpisode(w.q, live.id, {
    whatsappId: after.whatsappId,
    queueId: after.queueId,
    userId: after.userId,
    ...(after.userId !== live.userId ? { startedAt: after.userId ? new Date() : null } : {}),
  });
  return announceChange(w, live, after);
}

/** The company's conversation: its author's and open, or pending in its area (its own, else the connection's); the bot out. */
async function companyPatch(w: Within, t: TicketRow, starter: Starter) {
  const bot = { chatbot: false, queueOptionId: null, startedByCompany: true } as const;
  if (starter.author) return { ...bot, status: "open", userId: starter.author.id };
  return { ...bot, status: "pending", userId: null, queueId: t.queueId ?? (await connectionArea(w.q, starter.whatsappId)) };
}

/** The connection's first area in the bot's order, or null when it serves none. */
export async function connectionArea(q: Scoped, whatsappId: number): Promise<number | null> {
  const [row] = await q.db
    .select({ id: queues.id })
    .from(queues)
    .innerJoin(
      whatsappQueues,
      sql`${whatsappQueues.companyId} = ${queues.companyId} and ${whatsappQueues.queueId} = ${queues.id} and ${whatsappQueues.whatsappId} = ${whatsappId}`,
    )
    .where(eq(queues.companyId, q.companyId))
    .orderBy(...queueOrder)
    .limit(1);
  return row?.id ?? null;
}

async function insertLive(q: Scoped, values: Omit<typeof tickets.$inferInsert, "companyId">): Promise<TicketRow | null> {
  const [row] = await q.db
    .insert(tickets)
    .values({ ...values, companyId: q.companyId })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
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

/**
 * The contact's ticket on this connection closed less than 2 h ago, locked. "Closed" is when its last
 * episode finished: updatedAt moves with any later write (tags, a no-op save) and would stretch the window.
 */
async function recentlyClosed(q: Scoped, contactId: number, whatsappId: number): Promise<TicketRow | null> {
  const closedAt = sql`(select max(${ticketTracking.finishedAt}) from ${ticketTracking}
    where ${ticketTracking.companyId} = ${q.companyId} and ${ticketTracking.ticketId} = ${tickets.id})`;
  const [recent] = await q.db
    .select()
    .from(tickets)
    .where(
      q.tickets.where(
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        eq(tickets.status, "closed"),
        gt(closedAt, new Date(Date.now() - REOPEN_WINDOW_MS)),
      ),
    )
    .orderBy(desc(tickets.id))
    .limit(1)
    .for("update");
  return recent ?? null;
}
