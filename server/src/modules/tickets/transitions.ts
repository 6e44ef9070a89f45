import type { TicketView } from "@charla/contracts";
import { type Column, type SQL, eq, inArray, isNull } from "drizzle-orm";
import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { tickets } from "../../db/schema/index.js";
import type { TxHooks } from "../../db/tx.js";
import type { DomainEvent } from "../../events/index.js";
import { queueAutomatic } from "../messages/automatic.js";
import { type AutomaticCause, asksRating, automaticMessageOf } from "./automatic-messages.js";
import { ticketChangeBroadcast } from "./broadcast.js";
import { STARTED_OR_NOW, changeEpisode, episodeQueue, startEpisode } from "./episodes.js";

export type TicketRow = typeof tickets.$inferSelect;

/**
 * The ticket's lifecycle (core §4; behaviours: inbound path 6, ticket tracking, rating, expiry), the one
 * owner of a ticket's status and its tracking episodes (anchors: Outline's commands, one command owning a
 * change across models; Chatwoot's message builder). Whoever causes a change — an agent, the bot, the
 * expiry and delayed-routing sweeps, a rating, the external API, a schedule — calls one of these inside
 * its own transaction, on the row it locked (or, for the bot and the sweeps, a guarded update): each
 * patches the ticket, keeps its episode, queues the automatic message the change sends (recorded with
 * it, sent after the commit) and publishes `ticket.changed` through the transaction's `publish`, so the
 * event goes out once the change is committed and never if it rolls back.
 * The inbound statement (pipeline/writer.ts) is the one other writer of status and episodes: it creates
 * a customer's new pending ticket with its first episode, as `openForCustomer` does.
 */
export type Within = {
  s: Services;
  tx: Tx;
  q: Scoped;
  publish: TxHooks<DomainEvent>["publish"];
};

export function within(s: Services, tx: Tx, companyId: number, hooks: Pick<TxHooks<DomainEvent>, "publish">): Within {
  return { s, tx, q: scoped(tx, companyId), publish: hooks.publish };
}

/** The ticket after a transition, and its view as the event told it. */
export type Moved = { ticket: TicketRow; view: TicketView };

/** Fields that ride along with a transition (the automation pointers a request sets): never its own. */
type Extra = Pick<Partial<TicketRow>, "useIntegration" | "promptId" | "integrationId">;

/** Who acts: an agent (named in their automatic messages), or nobody in particular (a sweep, the API). */
export type Agent = { id: number; name: string } | null;

/** What a closed ticket forgets (core §3: cleared when closing): its automations and its place in the bot. */
const CLOSED = {
  status: "closed",
  useIntegration: false,
  promptId: null,
  integrationId: null,
  automationDone: [],
  chatbot: false,
  queueOptionId: null,
} satisfies Partial<TicketRow>;

/** Writes the patch, publishes who may see the ticket now (and who no longer may), answers the row and its view. */
async function apply(w: Within, before: TicketRow, patch: Partial<TicketRow>): Promise<Moved> {
  const after = (await w.q.tickets.update(before.id, patch)) as TicketRow;
  return announceChange(w, before, after);
}

export async function announceChange(w: Within, before: TicketRow | null, after: TicketRow): Promise<Moved> {
  const change = await ticketChangeBroadcast(w.q, before, after);
  await w.publish(change.event);
  return { ticket: after, view: change.view };
}

/** The automatic message of a change (accept, transfer, resolve), recorded with it. */
async function sendAutomatic(w: Within, cause: AutomaticCause, after: TicketRow, agent: Agent) {
  const body = await automaticMessageOf(w.q, cause, after, agent);
  if (body) await queueAutomatic(w, w.q.companyId, after, [body]);
}

/** A ticket an agent opens from the new-ticket dialog: open and theirs at once; null when the contact has a live one there. */
export async function openByAgent(
  w: Within,
  values: { contactId: number; whatsappId: number; queueId: number | null; userId: number; isGroup: boolean },
): Promise<Moved | null> {
  const [row] = await w.tx
    .insert(tickets)
    .values({ companyId: w.q.companyId, ...values, status: "open" })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  const now = new Date();
  await startEpisode(w.q, row.id, { whatsappId: row.whatsappId, queueId: row.queueId, userId: row.userId, startedAt: now });
  return announceChange(w, null, row);
}

/** pending → open: the agent takes the ticket and the bot stops (behaviours: Option tree). */
export async function accept(
  w: Within,
  before: TicketRow,
  agent: { id: number; name: string },
  extra: Extra = {},
): Promise<Moved> {
  const moved = await apply(w, before, { ...extra, status: "open", userId: agent.id, chatbot: false, queueOptionId: null });
  await changeEpisode(w.q, before.id, {
    whatsappId: moved.ticket.whatsappId,
    queueId: moved.ticket.queueId,
    userId: agent.id,
    startedAt: new Date(),
  });
  await sendAutomatic(w, "accept", moved.ticket, agent);
  return moved;
}

/** open → pending: back to its area for whoever takes it. */
export async function returnToQueue(w: Within, before: TicketRow, extra: Extra = {}): Promise<Moved> {
  const moved = await apply(w, before, { ...extra, status: "pending", userId: null });
  await changeEpisode(w.q, before.id, {
    whatsappId: moved.ticket.whatsappId,
    queueId: moved.ticket.queueId,
    userId: null,
    startedAt: null,
  });
  return moved;
}

/**
 * To another area, connection or agent: open when an agent receives it, else pending in its area. The
 * receiving agent is told (`ticket.transferred`); the customer too, with sendMsgTransfTicket. A transfer
 * hands the customer to people: the automation the ticket talked to lets go, and the receiving area's
 * own (its prompt, its typebot) does not take it (automation/resolve.ts reads `automationDone`) — unless
 * the request itself puts the ticket in an integration's hands (`useIntegration`).
 */
export async function transfer(
  w: Within,
  before: TicketRow,
  to: { queueId: number | null; whatsappId: number | null; userId: number | null },
  by: { id: number },
  extra: Extra = {},
): Promise<Moved> {
  const toPeople = extra.useIntegration !== true;
  const area = to.queueId !== null ? `queue:${to.queueId}` : null;
  const people: Partial<TicketRow> =
    toPeople && area
      ? {
          useIntegration: false,
          automationDone: before.automationDone.includes(area) ? before.automationDone : [...before.automationDone, area],
        }
      : toPeople
        ? { useIntegration: false }
        : {};
  const moved = await apply(w, before, { ...extra, ...people, ...to, status: to.userId ? "open" : "pending", chatbot: false });
  const after = moved.ticket;
  await changeEpisode(w.q, before.id, {
    whatsappId: after.whatsappId,
    queueId: after.queueId,
    userId: after.userId,
    startedAt: after.userId ? STARTED_OR_NOW : null,
  });
  if (after.userId && after.userId !== by.id)
    await w.publish({ type: "ticket.transferred", companyId: w.q.companyId, ticket: moved.view, toUserId: after.userId });
  const agent = after.userId ? await w.q.users.findById(after.userId) : null;
  await sendAutomatic(w, "transfer", after, agent);
  return moved;
}

/**
 * Resolved (core §4): closed, its automations and bot place cleared, its episode finished. An agent who
 * served a contact's ticket is asked for a rating with userRating on (the ticket then awaits it), else
 * the completion message goes. `by` null: nobody in particular (the external API), the holder stays.
 * `keepCompanyStart`: the API's "send and close" — the customer's answer still reaches its area.
 */
export async function resolve(
  w: Within,
  before: TicketRow,
  by: Agent,
  { keepCompanyStart = false }: { keepCompanyStart?: boolean } = {},
): Promise<Moved> {
  const holder = by ? by.id : before.userId;
  // an agent closing what an agent served asks for the rating; nobody in particular asks nothing
  const rating = by !== null && (await asksRating(w.q, before));
  const moved = await apply(w, before, {
    ...CLOSED,
    userId: holder,
    startedByCompany: keepCompanyStart && before.startedByCompany,
    ...(rating ? { awaitingRating: true, ratingAsks: 1 } : {}),
  });
  await changeEpisode(w.q, before.id, {
    whatsappId: moved.ticket.whatsappId,
    queueId: moved.ticket.queueId,
    userId: holder,
    finishedAt: new Date(),
  });
  // the API's close sends what it was asked to send, and nothing after it
  if (by) await sendAutomatic(w, "resolve", moved.ticket, by);
  return moved;
}

/** closed → open by an agent: theirs again, a new episode, no rating awaited any more. */
export async function reopenByAgent(w: Within, before: TicketRow, agent: { id: number }, extra: Extra = {}): Promise<Moved> {
  const moved = await apply(w, before, { ...extra, status: "open", userId: agent.id, awaitingRating: false, ratingAsks: 0 });
  const now = new Date();
  await startEpisode(w.q, before.id, {
    whatsappId: moved.ticket.whatsappId,
    queueId: moved.ticket.queueId,
    userId: agent.id,
    startedAt: now,
  });
  return moved;
}

/** Fields that are no transition (the ticket's automation pointers): the row changes, the episode does not. */
export async function changeFields(w: Within, before: TicketRow, patch: Partial<TicketRow>): Promise<Moved> {
  return apply(w, before, patch);
}

/**
 * Expiry (behaviours: Expiry): an open ticket silent after our last message closes as a resolve by nobody
 * would, guarded on still being open (the sweep locks without waiting), with the connection's
 * `expiresInactiveMessage`. Null when it was no longer open.
 */
export async function expire(
  w: Within,
  before: TicketRow,
  message: (after: TicketRow) => Promise<string>,
): Promise<Moved | null> {
  const [after] = await w.tx
    .update(tickets)
    .set({ ...CLOSED, startedByCompany: false, updatedAt: new Date() })
    .where(w.q.tickets.where(eq(tickets.id, before.id), eq(tickets.status, "open")))
    .returning();
  if (!after) return null;
  await changeEpisode(w.q, before.id, { whatsappId: after.whatsappId, queueId: after.queueId, finishedAt: new Date() });
  const body = await message(after);
  if (body.trim()) await queueAutomatic(w, w.q.companyId, after, [body]);
  return announceChange(w, before, after);
}

/**
 * `sendIdQueue` / `timeSendQueue` (behaviours: Queue choice): a pending ticket still without an area is
 * moved to one, guarded on still being so (another node, an agent or the bot may have moved it).
 */
export async function routeByDelay(w: Within, before: TicketRow, queueId: number): Promise<Moved | null> {
  const [after] = await w.tx
    .update(tickets)
    .set({ queueId, updatedAt: new Date() })
    .where(w.q.tickets.where(eq(tickets.id, before.id), eq(tickets.status, "pending"), isNull(tickets.queueId)))
    .returning();
  if (!after) return null;
  await episodeQueue(w.q, before.id, queueId);
  return announceChange(w, before, after);
}

const sameOrNull = (column: Column, value: number | null) => (value === null ? isNull(column) : eq(column, value));

/**
 * The bot's step on a ticket (its area chosen, its place in the tree, an automation taking or handing it
 * over), as one guarded update without a lock: it takes only if the ticket is still as the bot read it
 * (no agent took it, not closed, same area, place, flag and connection) and the turn on `messageId` is
 * not taken yet (chatbot/turns.ts). The lists hear of it when its area, bot flag or automation moved.
 */
export async function botStep(
  w: Within,
  before: TicketRow,
  patch: Partial<TicketRow>,
  messageId: number,
  notAnswered: (messageId: number) => SQL | undefined,
): Promise<TicketRow | null> {
  const [after] = await w.tx
    .update(tickets)
    .set({ ...patch, botAnsweredMessageId: messageId, updatedAt: new Date() })
    .where(
      w.q.tickets.where(
        eq(tickets.id, before.id),
        isNull(tickets.userId),
        eq(tickets.status, before.status),
        sameOrNull(tickets.queueId, before.queueId),
        sameOrNull(tickets.queueOptionId, before.queueOptionId),
        eq(tickets.chatbot, before.chatbot),
        sameOrNull(tickets.whatsappId, before.whatsappId),
        notAnswered(messageId),
      ),
    )
    .returning();
  if (!after) return null;
  if (after.queueId !== before.queueId) await episodeQueue(w.q, before.id, after.queueId);
  if (after.queueId !== before.queueId || after.chatbot !== before.chatbot || after.useIntegration !== before.useIntegration)
    await announceChange(w, before, after);
  return after;
}

/** Resolving these asks nothing more of the contact: a rating waited for on an older ticket is dropped. */
export async function endRatingWait(q: Scoped, ids: number[]) {
  if (ids.length === 0) return;
  await q.db
    .update(tickets)
    .set({ awaitingRating: false })
    .where(q.tickets.where(inArray(tickets.id, ids)));
}
