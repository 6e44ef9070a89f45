import { IdParams, TicketNoteForm, TicketNoteListQuery, type TicketNoteView } from "@charla/contracts";
import { desc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type Scoped, scopedFor } from "../../db/scoped.js";
import { ticketNotes, tickets, users } from "../../db/schema/index.js";
import { AppError, found } from "../../lib/app-error.js";
import { visibleTickets } from "../../policies/tickets.js";
import { visibleTicket } from "../tickets/queries.js";
import { isStaff, loadViewer } from "../tickets/viewer.js";

type NoteRow = typeof ticketNotes.$inferSelect;

const tenant = scopedFor;

async function presentNotes(q: Scoped, rows: NoteRow[]): Promise<TicketNoteView[]> {
  const ids = [...new Set(rows.map((r) => r.userId).filter((x): x is number => x !== null))];
  const authors = ids.length
    ? await q.db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(q.users.where(inArray(users.id, ids)))
    : [];
  const byId = new Map(authors.map((u) => [u.id, u]));
  return rows.map((r) => ({
    id: r.id,
    note: r.note,
    ticketId: r.ticketId,
    contactId: r.contactId,
    user: r.userId ? (byId.get(r.userId) ?? null) : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Internal notes on a contact's conversations (core §7 Notes); only those who see the ticket. */
export async function notesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const use = { permission: "tickets.use" } as const;

  r.post("/ticket-notes", { schema: { body: TicketNoteForm }, config: use }, async (req, reply) => {
    const q = tenant(req);
    const ticket = await visibleTicket(q, await loadViewer(q, req.ctx.user), { id: req.body.ticketId });
    if (ticket.contactId !== req.body.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
    const row = await q.ticketNotes.insert({
      note: req.body.note,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: req.ctx.user.id,
    });
    const [view] = await presentNotes(q, [row]);
    return reply.status(201).send(view);
  });

  r.get("/ticket-notes/list", { schema: { querystring: TicketNoteListQuery }, config: use }, async (req) => {
    const q = tenant(req);
    const viewer = await loadViewer(q, req.ctx.user);
    // the notes of a contact are read from one of its tickets the viewer may see
    if (req.query.ticketId) {
      const ticket = await visibleTicket(q, viewer, { id: req.query.ticketId });
      if (ticket.contactId !== req.query.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
    } else if (!isStaff(viewer)) {
      throw new AppError("ERR_NO_PERMISSION");
    }
    // only notes written on tickets the viewer may see (core §6), not the contact's other conversations
    const visible = visibleTickets(viewer);
    const rows = await q.db
      .select()
      .from(ticketNotes)
      .where(
        q.ticketNotes.where(
          eq(ticketNotes.contactId, req.query.contactId),
          visible
            ? inArray(ticketNotes.ticketId, q.db.select({ id: tickets.id }).from(tickets).where(q.tickets.where(visible)))
            : undefined,
        ),
      )
      .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id))
      .limit(200);
    return presentNotes(q, rows);
  });

  r.delete("/ticket-notes/:id", { schema: { params: IdParams }, config: use }, async (req, reply) => {
    const q = tenant(req);
    const viewer = await loadViewer(q, req.ctx.user);
    const note = found(await q.ticketNotes.findById(req.params.id), "ERR_NO_NOTE_FOUND");
    await visibleTicket(q, viewer, { id: note.ticketId }).catch(() => {
      throw new AppError("ERR_NO_NOTE_FOUND");
    });
    if (note.userId !== viewer.id && !isStaff(viewer)) throw new AppError("ERR_NO_PERMISSION");
    await q.ticketNotes.delete(note.id);
    return reply.status(204).send();
  });
}
