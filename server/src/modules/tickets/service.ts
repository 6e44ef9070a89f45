import {
  type OtherOpenTicketData,
  type TicketCreateForm,
  type TicketStatus,
  type TicketUpdateForm,
  type TicketView,
  V,
  can,
} from "@charla/contracts";
import { eq, inArray, isNull, ne } from "drizzle-orm";
import type { z } from "zod";
import type { RequestCtx } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { queues, tickets, users, whatsapps } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { assertNotHeldByBot, canSeeTicket, ticketAudience } from "../../policies/tickets.js";
import { ticketView } from "./queries.js";
import { accept, changeFields, openByAgent, reopenByAgent, resolve, returnToQueue, transfer, within } from "./transitions.js";
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
  return withTransaction(ctx, async (tx, hooks) => {
    const w = within(ctx, tx, ctx.companyId, hooks);
    const q = w.q;
    const viewer = await loadViewer(q, ctx.user);
    const contact = found(await q.contacts.findById(input.contactId), "ERR_NO_CONTACT_FOUND");
    await assertQueue(q, input.queueId);
    // an agent opens tickets in their own queues only (core §6); staff in any
    if (input.queueId && !isStaff(viewer) && !viewer.queueIds.includes(input.queueId))
      throw new AppError("ERR_QUEUE_NOT_ALLOWED");
    await assertUser(q, input.userId);
    const whatsappId = await connectionFor(q, input.whatsappId, viewer);
    const userId = input.userId ?? ctx.user.id;
    const opened = await openByAgent(w, {
      contactId: contact.id,
      whatsappId,
      queueId: input.queueId ?? null,
      userId,
      isGroup: contact.isGroup,
    });
    if (!opened) throw (await otherOpenTicket(q, viewer, contact.id, whatsappId, 0)) ?? new AppError("ERR_CREATING_TICKET");
    return opened.view;
  });
}

type Kind = "accept" | "return" | "resolve" | "reopen" | "transfer" | "fields";
type Target = { queueId: number | null; whatsappId: number | null; userId: number | null };

const ALLOWED: Record<TicketStatus, TicketStatus[]> = {
  pending: ["open", "closed"],
  open: ["pending", "closed"],
  closed: ["open"],
};

/** Which transition of core §4 a request asks for, checked against the viewer's rights. */
function decide(ctx: RequestCtx, viewer: Viewer, t: TicketRow, input: UpdateInput): { kind: Kind; to?: Target } {
  const me = viewer.id;
  const transfer =
    (input.queueId !== undefined && input.queueId !== t.queueId) ||
    (input.whatsappId !== undefined && input.whatsappId !== t.whatsappId) ||
    (input.userId != null && input.userId !== me && input.userId !== t.userId);
  if (transfer) {
    if (!can(ctx.user, "tickets.transfer")) throw new AppError("ERR_NO_PERMISSION");
    if (t.status === "closed") throw new AppError("ERR_INVALID_TRANSITION");
    return {
      kind: "transfer",
      to: {
        queueId: input.queueId === undefined ? t.queueId : input.queueId,
        whatsappId: input.whatsappId ?? t.whatsappId,
        userId: input.userId ?? null,
      },
    };
  }
  const target = (input.status ?? t.status) as TicketStatus;
  if (target === t.status) return { kind: "fields" };
  if (!ALLOWED[t.status as TicketStatus].includes(target)) throw new AppError("ERR_INVALID_TRANSITION");
  if (target === "closed") return { kind: "resolve" };
  if (target === "pending") return { kind: "return" };
  return { kind: t.status === "pending" ? "accept" : "reopen" };
}

/** The automation pointers a request may set on a live ticket (core §7: cleared when closing). */
function automationFields(
  t: TicketRow,
  input: UpdateInput,
): Pick<Partial<TicketRow>, "useIntegration" | "promptId" | "integrationId"> {
  return {
    useIntegration: input.useIntegration ?? t.useIntegration,
    promptId: input.promptId === undefined ? t.promptId : input.promptId,
    integrationId: input.integrationId === undefined ? t.integrationId : input.integrationId,
  };
}

/** PUT /tickets/{id}: every transition of core §4, under a row lock so two agents cannot both accept. */
export async function updateTicket(ctx: RequestCtx, id: number, input: UpdateInput): Promise<TicketView> {
  return withTransaction(ctx, async (tx, hooks) => {
    const w = within(ctx, tx, ctx.companyId, hooks);
    const q = w.q;
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
    const { kind, to } = decide(ctx, viewer, t, input);
    if (to) {
      await assertQueue(q, to.queueId);
      await assertUser(q, to.userId);
      if (to.whatsappId && to.whatsappId !== t.whatsappId) found(await q.whatsapps.findById(to.whatsappId), "ERR_NO_WAPP_FOUND");
    }
    // a live ticket elsewhere for this contact must be named before the update: the unique index
    // would refuse it too, but its error aborts the transaction and nothing could be read after it
    const whatsappId = to ? to.whatsappId : t.whatsappId;
    if ((kind === "reopen" || kind === "transfer") && (t.status === "closed" || whatsappId !== t.whatsappId)) {
      const other = await otherOpenTicket(q, viewer, t.contactId, whatsappId, t.id);
      if (other) throw other;
    }
    const me = { id: viewer.id, name: ctx.user.name };
    if (kind === "resolve") return (await resolve(w, t, me)).view;
    // the automation pointers ride along with any change that leaves the ticket live
    const fields = automationFields(t, input);
    if (kind === "fields") return fieldsChanged(t, fields) ? (await changeFields(w, t, fields)).view : ticketView(q, t);
    if (kind === "accept") return (await accept(w, t, me, fields)).view;
    if (kind === "return") return (await returnToQueue(w, t, fields)).view;
    if (kind === "reopen") return (await reopenByAgent(w, t, me, fields)).view;
    // a transfer goes to people unless the request itself asks for an integration
    const handOver = input.useIntegration === true ? fields : { ...fields, useIntegration: false };
    return (await transfer(w, t, to as Target, me, handOver)).view;
  });
}

/** DELETE /tickets/{id} (admin): everyone who saw it drops it. */
export async function deleteTicket(ctx: RequestCtx, id: number): Promise<void> {
  await withTransaction(ctx, async (tx, { publish }) => {
    const q = scoped(tx, ctx.companyId);
    const t = found(await q.tickets.lockById(id), "ERR_NO_TICKET_FOUND");
    const audience = await ticketAudience(q, t);
    await q.tickets.delete(t.id);
    await publish({ type: "ticket.deleted", companyId: ctx.companyId, ticketId: t.id, audience });
  });
}
