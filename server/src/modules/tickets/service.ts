import {
  type OtherOpenTicketData,
  type TicketCreateForm,
  type TicketStatus,
  type TicketUpdateForm,
  type TicketView,
  V,
  can,
} from "@charla/contracts";
import { desc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { queues, tickets, ticketTracking, users, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { assertNotHeldByBot, canSeeTicket, ticketAudience } from "../../policies/tickets.js";
import { queueAutomatic } from "../messages/automatic.js";
import { asksRating, automaticMessageOf } from "./automatic-messages.js";
import { ticketChangeBroadcast } from "./broadcast.js";
import { type Viewer, isStaff, loadViewer } from "./viewer.js";

type TicketRow = typeof tickets.$inferSelect;
type CreateInput = z.output<typeof TicketCreateForm>;
type UpdateInput = z.output<typeof TicketUpdateForm>;

/**
 * ERR_OTHER_OPEN_TICKET for the contact's live ticket on the connection, if any. Which ticket, whose
 * and in which queue is said only to a viewer who may see it (core §6); others learn that one exists.
 */
async function otherOpenTicket(
  q: Scoped,
  viewer: Viewer,
  contactId: number,
  whatsappId: number | null,
  exceptId: number,
): Promise<AppError | null> {
  const [row] = await q.db
    .select({
      id: tickets.id,
      uuid: tickets.uuid,
      status: tickets.status,
      userId: tickets.userId,
      queueId: tickets.queueId,
      chatbot: tickets.chatbot,
      whatsappId: tickets.whatsappId,
      userName: users.name,
      queueName: queues.name,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .where(
      q.tickets.where(
        eq(tickets.contactId, contactId),
        whatsappId === null ? isNull(tickets.whatsappId) : eq(tickets.whatsappId, whatsappId),
        inArray(tickets.status, ["open", "pending"]),
        ne(tickets.id, exceptId),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (!canSeeTicket(viewer, row)) return new AppError("ERR_OTHER_OPEN_TICKET");
  const data: OtherOpenTicketData = {
    ticketId: row.id,
    uuid: row.uuid,
    userId: row.userId,
    userName: row.userName,
    queueName: row.queueName,
  };
  return new AppError("ERR_OTHER_OPEN_TICKET", { data });
}

/** A request that changes nothing must not touch the row (its updatedAt orders the lists). */
function fieldsChanged(t: TicketRow, patch: Partial<TicketRow>): boolean {
  return (Object.keys(patch) as (keyof TicketRow)[]).some((k) => patch[k] !== t[k]);
}

async function assertQueue(q: Scoped, id: number | null | undefined) {
  if (id) found(await q.queues.findById(id), "ERR_NO_QUEUE_FOUND");
}
async function assertUser(q: Scoped, id: number | null | undefined) {
  if (id) found(await q.users.findById(id), "ERR_NO_USER_FOUND");
}

/** The connection of a new ticket: the one given, else the user's own, else the company default. */
async function connectionFor(q: Scoped, given: number | null | undefined, viewer: Viewer): Promise<number> {
  if (given) return found(await q.whatsapps.findById(given), "ERR_NO_WAPP_FOUND").id;
  if (viewer.whatsappId && (await q.whatsapps.findById(viewer.whatsappId))) return viewer.whatsappId;
  const [def] = await q.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(q.whatsapps.where(eq(whatsapps.isDefault, true)))
    .limit(1);
  return found(def, "ERR_NO_DEF_WAPP_FOUND").id;
}

/** New ticket from the modal (core §4): open, assigned, one live ticket per contact and connection. */
export async function createTicket(ctx: RequestCtx, input: CreateInput): Promise<TicketView> {
  if (!input.queueId && !can(ctx.user, "tickets.no-queue"))
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "queueId", message: V.queueRequired }] });
  if (input.userId && input.userId !== ctx.user.id && !can(ctx.user, "tickets.transfer")) throw new AppError("ERR_NO_PERMISSION");
  return withTransaction(ctx.db, async (tx, { afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const viewer = await loadViewer(q, ctx.user);
    const contact = found(await q.contacts.findById(input.contactId), "ERR_NO_CONTACT_FOUND");
    await assertQueue(q, input.queueId);
    // an agent opens tickets in their own queues only (core §6); staff in any
    if (input.queueId && !isStaff(viewer) && !viewer.queueIds.includes(input.queueId))
      throw new AppError("ERR_QUEUE_NOT_ALLOWED");
    await assertUser(q, input.userId);
    const whatsappId = await connectionFor(q, input.whatsappId, viewer);
    const userId = input.userId ?? ctx.user.id;
    const [row] = await tx
      .insert(tickets)
      .values({
        companyId: ctx.companyId,
        contactId: contact.id,
        whatsappId,
        queueId: input.queueId ?? null,
        userId,
        status: "open",
        isGroup: contact.isGroup,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw (await otherOpenTicket(q, viewer, contact.id, whatsappId, 0)) ?? new AppError("ERR_CREATING_TICKET");
    const now = new Date();
    await q.ticketTracking.insert({ ticketId: row.id, whatsappId, queueId: row.queueId, userId, queuedAt: now, startedAt: now });
    const change = await ticketChangeBroadcast(ctx, q, null, row);
    afterCommit(change.emit);
    return change.view;
  });
}

type Change = {
  kind: "accept" | "return" | "resolve" | "reopen" | "transfer" | "fields";
  patch: Partial<TicketRow>;
};

const ALLOWED: Record<TicketStatus, TicketStatus[]> = {
  pending: ["open", "closed"],
  open: ["pending", "closed"],
  closed: ["open"],
};

/** Which transition of core §4 a request asks for, checked against the viewer's rights. */
function decide(ctx: RequestCtx, viewer: Viewer, t: TicketRow, input: UpdateInput): Change {
  const me = viewer.id;
  const transfer =
    (input.queueId !== undefined && input.queueId !== t.queueId) ||
    (input.whatsappId !== undefined && input.whatsappId !== t.whatsappId) ||
    (input.userId != null && input.userId !== me && input.userId !== t.userId);
  if (transfer) {
    if (!can(ctx.user, "tickets.transfer")) throw new AppError("ERR_NO_PERMISSION");
    if (t.status === "closed") throw new AppError("ERR_INVALID_TRANSITION");
    const userId = input.userId ?? null;
    return {
      kind: "transfer",
      patch: {
        queueId: input.queueId === undefined ? t.queueId : input.queueId,
        whatsappId: input.whatsappId ?? t.whatsappId,
        userId,
        status: userId ? "open" : "pending",
        chatbot: false,
      },
    };
  }
  const target = (input.status ?? t.status) as TicketStatus;
  if (target === t.status) return { kind: "fields", patch: {} };
  if (!ALLOWED[t.status as TicketStatus].includes(target)) throw new AppError("ERR_INVALID_TRANSITION");
  if (target === "closed")
    return {
      kind: "resolve",
      patch: {
        status: "closed",
        userId: me,
        useIntegration: false,
        promptId: null,
        integrationId: null,
        automationDone: [],
        chatbot: false,
        queueOptionId: null,
      },
    };
  if (target === "pending") return { kind: "return", patch: { status: "pending", userId: null } };
  // an agent taking the ticket stops the bot (behaviours: Option tree)
  if (t.status === "pending")
    return { kind: "accept", patch: { status: "open", userId: me, chatbot: false, queueOptionId: null } };
  // a reopened ticket no longer waits for its rating
  return { kind: "reopen", patch: { status: "open", userId: me, awaitingRating: false, ratingAsks: 0 } };
}

async function currentEpisode(q: Scoped, ticketId: number) {
  const [row] = await q.db
    .select()
    .from(ticketTracking)
    .where(q.ticketTracking.where(eq(ticketTracking.ticketId, ticketId), isNull(ticketTracking.finishedAt)))
    .orderBy(desc(ticketTracking.id))
    .limit(1);
  return row ?? null;
}

/** Tracking records (behaviours: ticket tracking): one episode per queued → started → finished run. */
async function track(q: Scoped, before: TicketRow, after: TicketRow, kind: Change["kind"], me: number) {
  const now = new Date();
  const episode = await currentEpisode(q, before.id);
  const base = { whatsappId: after.whatsappId, queueId: after.queueId };
  if (kind === "reopen" || !episode) {
    if (kind === "fields") return;
    await q.ticketTracking.insert({
      ticketId: after.id,
      ...base,
      userId: after.userId,
      queuedAt: now,
      startedAt: after.status === "open" ? now : null,
      finishedAt: after.status === "closed" ? now : null,
    });
    return;
  }
  const patch =
    kind === "accept"
      ? { ...base, userId: me, startedAt: now }
      : kind === "return"
        ? { ...base, userId: null, startedAt: null }
        : kind === "resolve"
          ? { ...base, userId: me, finishedAt: now }
          : kind === "transfer"
            ? { ...base, userId: after.userId, startedAt: after.userId ? (episode.startedAt ?? now) : null }
            : base;
  await q.ticketTracking.update(episode.id, patch);
}

/** PUT /tickets/{id}: every transition of core §4, under a row lock so two agents cannot both accept. */
export async function updateTicket(ctx: RequestCtx, id: number, input: UpdateInput): Promise<TicketView> {
  return withTransaction(ctx.db, async (tx, { afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const viewer = await loadViewer(q, ctx.user);
    const t = await q.tickets.lockById(id);
    if (!t) throw new AppError("ERR_NO_TICKET_FOUND");
    // a second accept of a ticket of one's queues that someone else took a moment ago: say who took it
    const lateAccept =
      input.status === "open" && input.queueId === undefined && t.status === "open" && t.userId && t.userId !== viewer.id;
    if (!canSeeTicket(viewer, lateAccept ? { ...t, status: "pending", userId: null } : t))
      throw new AppError("ERR_NO_TICKET_FOUND");
    if (lateAccept && t.userId) {
      const holder = await q.users.findById(t.userId);
      throw new AppError("ERR_TICKET_ALREADY_ACCEPTED", { data: { userName: holder?.name ?? "" } });
    }
    if (input.expectedStatus && input.expectedStatus !== t.status) throw new AppError("ERR_TICKET_STATUS_CHANGED");
    // agents act on pending tickets, their own, and closed ones (reopen); others' open tickets are not theirs
    if (!isStaff(viewer) && t.status === "open" && t.userId !== viewer.id) throw new AppError("ERR_NO_PERMISSION");
    // the bot's conversation is read-only to agents until it lets go (issue 26); staff may take over
    assertNotHeldByBot(viewer, t);
    const change = decide(ctx, viewer, t, input);
    await assertQueue(q, change.patch.queueId);
    await assertUser(q, change.patch.userId);
    if (change.patch.whatsappId && change.patch.whatsappId !== t.whatsappId)
      found(await q.whatsapps.findById(change.patch.whatsappId), "ERR_NO_WAPP_FOUND");

    const closing = change.patch.status === "closed";
    // the rating question goes out after the commit; the ticket waits for its answer from now on
    const rating = change.kind === "resolve" && (await asksRating(q, t));
    const patch: Partial<TicketRow> = {
      ...change.patch,
      ...(rating ? { awaitingRating: true, ratingAsks: 1 } : {}),
      ...(closing
        ? {}
        : {
            useIntegration: input.useIntegration ?? t.useIntegration,
            promptId: input.promptId === undefined ? t.promptId : input.promptId,
            integrationId: input.integrationId === undefined ? t.integrationId : input.integrationId,
          }),
    };
    if (change.kind === "fields" && !fieldsChanged(t, patch)) return ticketChangeBroadcast(ctx, q, t, t).then((b) => b.view);
    // a live ticket elsewhere for this contact must be named before the update: the unique index
    // would refuse it too, but its error aborts the transaction and nothing could be read after it
    const becomesLive = patch.status === "open" || patch.status === "pending";
    const whatsappId = patch.whatsappId === undefined ? t.whatsappId : patch.whatsappId;
    if (becomesLive && (t.status === "closed" || whatsappId !== t.whatsappId)) {
      const other = await otherOpenTicket(q, viewer, t.contactId, whatsappId, t.id);
      if (other) throw other;
    }
    const updated = await q.tickets.update(t.id, patch);
    if (!updated) throw new AppError("ERR_NO_TICKET_FOUND");
    if (change.kind !== "fields") await track(q, t, updated, change.kind, viewer.id);

    const broadcast = await ticketChangeBroadcast(ctx, q, t, updated);
    afterCommit(broadcast.emit);
    if (change.kind === "transfer" && updated.userId && updated.userId !== viewer.id) {
      const toUserId = updated.userId;
      afterCommit(() =>
        ctx.events.publish({ type: "ticket.transferred", companyId: ctx.companyId, ticket: broadcast.view, toUserId }),
      );
    }
    // recorded with the change and sent after its commit; a failed send shows on the message, never on the change
    const body = await automaticMessageFor(ctx, q, change.kind, updated);
    if (body) await queueAutomatic(ctx, tx, afterCommit, ctx.companyId, updated, [body]);
    return broadcast.view;
  });
}

/** The accept, transfer and resolve messages of core §4 and the behaviours file, if the ticket has one. */
async function automaticMessageFor(ctx: RequestCtx, q: Scoped, kind: Change["kind"], t: TicketRow) {
  if (kind !== "accept" && kind !== "transfer" && kind !== "resolve") return null;
  // a transfer names its new agent; accept and resolve the agent acting
  const agent = kind === "transfer" ? (t.userId ? await q.users.findById(t.userId) : null) : ctx.user;
  return automaticMessageOf(q, kind, t, agent);
}

/** DELETE /tickets/{id} (admin): everyone who saw it drops it. */
export async function deleteTicket(ctx: RequestCtx, id: number): Promise<void> {
  await withTransaction(ctx.db, async (tx, { afterCommit }) => {
    const q = scoped(tx, ctx.companyId);
    const t = found(await q.tickets.lockById(id), "ERR_NO_TICKET_FOUND");
    const audience = await ticketAudience(q, t);
    await q.tickets.delete(t.id);
    afterCommit(() => ctx.events.publish({ type: "ticket.deleted", companyId: ctx.companyId, ticketId: t.id, audience }));
  });
}
