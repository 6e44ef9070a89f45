import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { scoped } from "../db/scoped.js";
import { ticketNotes, tickets } from "../db/schema/index.js";
import { loadViewer } from "../modules/tickets/viewer.js";
import { buildContact, buildMessage, buildTag, buildTicket, buildWhatsapp, type Session } from "../test/factories.js";
import { caller, expectError } from "../test/http.js";
import { scenario } from "../test/scenario.js";
import { listeningTestApp } from "../test/sockets.js";
import { canSeeTicket, ticketAudience, visibleTickets } from "./tickets.js";

const t = listeningTestApp();

const call = caller(() => t.app);

/**
 * Ana and Beto serve the same queue, Carla sees queue-less tickets (allTicket), Dora serves another
 * queue; an admin and a subadmin are staff. The connection offers Ventas (its chatbot's queue-less
 * tickets are Ana's and Beto's to watch); the second one offers no area of theirs. The ticket is
 * open and Ana's, with a message, a file and a note.
 */
async function world() {
  const w = await scenario(t.app, {
    queues: { sales: { name: "Ventas", offered: true }, support: "Soporte" },
    agents: {
      ana: { name: "Ana", queues: ["sales"] },
      beto: { name: "Beto", queues: ["sales"] },
      carla: { name: "Carla", allTicket: "enable" },
      dora: { name: "Dora", queues: ["support"] },
      sub: { name: "Sub", profile: "subadmin" },
    },
  });
  const wa2 = await buildWhatsapp(t.app, w.companyId, { provider: "simulator", status: "CONNECTED" });
  const contact = await w.contact({ name: "Cliente Privado" });
  const ticket = await w.ticket({ contactId: contact.id, status: "open", userId: w.ana.id });
  const mediaPath = await t.app.charla.storage.write(w.companyId, `media/policy-${ticket.id}.txt`, Buffer.from("secreto"));
  const message = await buildMessage(t.app, ticket, { body: "mi dirección es secreta" });
  const file = await buildMessage(t.app, ticket, { body: "", mediaType: "document", mediaPath, mediaName: "a.txt" });
  const [note] = await t.app.charla.db
    .insert(ticketNotes)
    .values({ companyId: w.companyId, ticketId: ticket.id, contactId: contact.id, userId: w.ana.id, note: "Cliente VIP" })
    .returning();
  return { ...w, wa2, contact, ticket, message, file, note };
}

type World = Awaited<ReturnType<typeof world>>;

/** Every way of reaching a ticket by its id: read, uuid, messages, media, notes, tags, update. */
async function reach(w: World, s: Session) {
  const tag = await buildTag(t.app, w.companyId);
  const notesOf = `/ticket-notes/list?ticketId=${w.ticket.id}&contactId=${w.contact.id}`;
  return {
    byId: await call(s, "GET", `/tickets/${w.ticket.id}`),
    byUuid: await call(s, "GET", `/tickets/u/${w.ticket.uuid}`),
    messages: await call(s, "GET", `/messages/${w.ticket.id}?peek=true`),
    media: await call(s, "GET", `/messages/${w.file.id}/media`),
    notes: await call(s, "GET", notesOf),
    addNote: await call(s, "POST", "/ticket-notes", { ticketId: w.ticket.id, contactId: w.contact.id, note: "otra nota" }),
    tags: await call(s, "POST", "/tags/sync", { ticketId: w.ticket.id, tags: [{ id: tag.id }] }),
  };
}

/** The payloads of `event` a socket receives while `act` runs and shortly after. */
async function received(s: Socket, event: string, act: () => Promise<unknown>, settleMs = 700): Promise<unknown[]> {
  const got: unknown[] = [];
  const onEvent = (payload: unknown) => got.push(payload);
  s.on(event, onEvent);
  try {
    await act();
    await new Promise((r) => setTimeout(r, settleMs));
  } finally {
    s.off(event, onEvent);
  }
  return got;
}

describe("#policy an agent does not see a colleague's open ticket (core §6)", () => {
  it("answers 404 on every route by id to a colleague of the same queue; the assignee and staff reach it", async () => {
    const w = await world();
    const beto = await reach(w, w.as.beto);
    expectError(beto.byId, 404, "ERR_NO_TICKET_FOUND");
    expectError(beto.byUuid, 404, "ERR_NO_TICKET_FOUND");
    expectError(beto.messages, 404, "ERR_NO_TICKET_FOUND");
    expectError(beto.media, 404, "ERR_NO_MESSAGE_FOUND");
    expectError(beto.notes, 404, "ERR_NO_TICKET_FOUND");
    expectError(beto.addNote, 404, "ERR_NO_TICKET_FOUND");
    expectError(beto.tags, 404, "ERR_NO_TICKET_FOUND");
    expectError(await call(w.as.beto, "DELETE", `/ticket-notes/${w.note.id}`), 404, "ERR_NO_NOTE_FOUND");
    expectError(await call(w.as.beto, "PUT", `/tickets/${w.ticket.id}`, { status: "closed" }), 404, "ERR_NO_TICKET_FOUND");
    // an accept a moment too late (the list still showed it pending) says who took it; another queue's agent learns nothing
    const late = { status: "open", userId: w.beto.id, expectedStatus: "pending" };
    const tooLate = await call(w.as.beto, "PUT", `/tickets/${w.ticket.id}`, late);
    expectError(tooLate, 409, "ERR_TICKET_ALREADY_ACCEPTED");
    expect(tooLate.json().message).toContain("Ana");
    expectError(await call(w.as.dora, "PUT", `/tickets/${w.ticket.id}`, late), 404, "ERR_NO_TICKET_FOUND");
    // nor does the body leak through the list or a search
    const listed = await call(w.as.beto, "GET", "/tickets?status=open&showAll=true&searchParam=Privado");
    expect(listed.json().tickets).toEqual([]);

    for (const s of [w.as.ana, w.admin, w.as.sub]) {
      const ok = await reach(w, s);
      expect(ok.byId.json()).toMatchObject({ id: w.ticket.id, userId: w.ana.id });
      expect(ok.byUuid.statusCode).toBe(200);
      expect(ok.messages.json().messages.map((m: { id: number }) => m.id)).toContain(w.message.id);
      expect(ok.media.body).toBe("secreto");
      expect(ok.notes.json().map((n: { id: number }) => n.id)).toContain(w.note.id);
      expect(ok.addNote.statusCode).toBe(201);
      expect(ok.tags.statusCode).toBe(200);
    }
  });

  it("shows the same ticket to the queue's agents once it is pending or closed, closed ones with their history", async () => {
    const w = await world();
    const db = t.app.charla.db;
    await db.update(tickets).set({ status: "pending", userId: null }).where(eq(tickets.id, w.ticket.id));
    expect((await call(w.as.beto, "GET", `/tickets/${w.ticket.id}`)).statusCode).toBe(200);
    // another queue's agent still does not see it
    expectError(await call(w.as.dora, "GET", `/tickets/${w.ticket.id}`), 404, "ERR_NO_TICKET_FOUND");

    await db.update(tickets).set({ status: "closed", userId: w.ana.id }).where(eq(tickets.id, w.ticket.id));
    const beto = await reach(w, w.as.beto);
    expect(beto.byId.json()).toMatchObject({ status: "closed", userId: w.ana.id });
    expect(beto.messages.json().messages.map((m: { id: number }) => m.id)).toContain(w.message.id);
    expect(beto.media.statusCode).toBe(200);
    expect(beto.notes.json().map((n: { id: number }) => n.id)).toContain(w.note.id);
    expectError(await call(w.as.dora, "GET", `/tickets/${w.ticket.id}`), 404, "ERR_NO_TICKET_FOUND");
  });

  it("sends its live message events to the assignee and staff only, whatever rooms a colleague joins", async () => {
    const w = await world();
    const [ana, beto, admin] = await Promise.all([t.open(w.as.ana), t.open(w.as.beto), t.open(w.admin)]);
    beto.emit("joinChatBox", String(w.ticket.id));
    beto.emit("joinTickets", "open");
    const event = Events.appMessage(w.companyId);
    // staff get it whenever the send lands, however long Ana's request takes: polled below, not a fixed window
    const gotAdmin: unknown[] = [];
    const onAdmin = (payload: unknown) => gotAdmin.push(payload);
    admin.on(event, onAdmin);
    const [gotBeto, gotAna] = await Promise.all([
      received(beto, event, async () => undefined, 2000),
      received(ana, event, async () => {
        const res = await call(w.as.ana, "POST", `/messages/${w.ticket.id}`, { body: "respuesta privada" });
        expect(res.statusCode).toBe(201);
      }),
    ]);
    expect(gotAna).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: expect.objectContaining({ body: "respuesta privada" }) })]),
    );
    await expect.poll(() => gotAdmin.length).toBeGreaterThan(0);
    admin.off(event, onAdmin);
    expect(gotBeto).toEqual([]);
  });

  it("lists only the notes of tickets the caller may see", async () => {
    const w = await world();
    // an earlier, closed conversation of the same contact in Beto's queue, with its own note
    const closed = await buildTicket(t.app, w.companyId, {
      contactId: w.contact.id,
      whatsappId: w.connection.id,
      queueId: w.sales.id,
      status: "closed",
      userId: w.ana.id,
    });
    const [old] = await t.app.charla.db
      .insert(ticketNotes)
      .values({ companyId: w.companyId, ticketId: closed.id, contactId: w.contact.id, userId: w.ana.id, note: "Antigua" })
      .returning();
    const query = (ticketId: number) => `/ticket-notes/list?ticketId=${ticketId}&contactId=${w.contact.id}`;
    const beto = await call(w.as.beto, "GET", query(closed.id));
    expect(beto.json().map((n: { id: number }) => n.id)).toEqual([old.id]);
    const ana = await call(w.as.ana, "GET", query(closed.id));
    expect(
      ana
        .json()
        .map((n: { id: number }) => n.id)
        .sort(),
    ).toEqual([old.id, w.note.id].sort());
    const admin = await call(w.admin, "GET", `/ticket-notes/list?contactId=${w.contact.id}`);
    expect(admin.json()).toHaveLength(2);
  });

  it("agrees with itself: a read by id, the list condition and the event audience decide alike", async () => {
    const w = await world();
    const facts = [
      { status: "open", userId: w.ana.id, queueId: w.sales.id },
      { status: "open", userId: w.beto.id, queueId: w.sales.id },
      { status: "open", userId: w.carla.id, queueId: null },
      { status: "open", userId: w.company.admin.id, queueId: w.support.id },
      { status: "pending", userId: null, queueId: w.sales.id },
      { status: "pending", userId: null, queueId: w.support.id },
      { status: "pending", userId: null, queueId: null },
      { status: "closed", userId: w.beto.id, queueId: w.sales.id },
      { status: "closed", userId: w.dora.id, queueId: w.support.id },
      { status: "closed", userId: w.ana.id, queueId: null },
      // the chatbot's: at the area choice of the Ventas connection, of the other one, inside Soporte's tree
      { status: "pending", userId: null, queueId: null, chatbot: true },
      { status: "pending", userId: null, queueId: null, chatbot: true, whatsappId: w.wa2.id },
      { status: "pending", userId: null, queueId: w.support.id, chatbot: true },
      { status: "open", userId: w.dora.id, queueId: null, chatbot: true },
    ] as const;
    const rows = [];
    for (const f of facts) {
      const contact = await buildContact(t.app, w.companyId);
      rows.push(await buildTicket(t.app, w.companyId, { contactId: contact.id, whatsappId: w.connection.id, ...f }));
    }
    const q = scoped(t.app.charla.db, w.companyId);
    const people = [w.ana, w.beto, w.carla, w.dora, w.company.admin];
    const audiences = new Map(await Promise.all(rows.map(async (r) => [r.id, await ticketAudience(q, r)] as const)));
    for (const person of people) {
      const viewer = await loadViewer(q, { ...person, sessionId: "x", plan: null });
      const listed = await q.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(q.tickets.where(visibleTickets(viewer)));
      const listedIds = new Set(listed.map((r) => r.id));
      for (const row of rows) {
        const sees = canSeeTicket(viewer, row);
        expect({ person: person.name, ticket: row.id, listed: listedIds.has(row.id) }).toEqual({
          person: person.name,
          ticket: row.id,
          listed: sees,
        });
        expect({ person: person.name, ticket: row.id, told: audiences.get(row.id)?.includes(person.id) }).toEqual({
          person: person.name,
          ticket: row.id,
          told: sees,
        });
      }
    }
    // the rule itself, spelled out for Beto (sales): his own, the queue's non-open ones, and the
    // bot's queue-less one on the connection that offers Ventas (issue 26)
    const beto = await loadViewer(q, { ...w.beto, sessionId: "x", plan: null });
    expect(rows.map((r) => canSeeTicket(beto, r))).toEqual([
      ...[false, true, false, false, true, false, false, true, false, false],
      ...[true, false, false, false],
    ]);
    // Dora (Soporte, offered by neither connection): the tree's ticket of her queue and her own
    const dora = await loadViewer(q, { ...w.dora, sessionId: "x", plan: null });
    expect(rows.slice(-4).map((r) => canSeeTicket(dora, r))).toEqual([false, false, true, true]);
  });
});

describe("#policy what an agent learns about a live ticket they cannot see", () => {
  it("ERR_OTHER_OPEN_TICKET names the ticket, its user and queue only to who may see it", async () => {
    const w = await world();
    const closed = await buildTicket(t.app, w.companyId, {
      contactId: w.contact.id,
      whatsappId: w.connection.id,
      queueId: w.sales.id,
      status: "closed",
      userId: w.beto.id,
    });
    // Beto reopens his closed conversation while Ana holds the contact's open one
    const hidden = await call(w.as.beto, "PUT", `/tickets/${closed.id}`, { status: "open", userId: w.beto.id });
    expectError(hidden, 409, "ERR_OTHER_OPEN_TICKET");
    expect(hidden.json().data).toBeUndefined();
    expect(hidden.body).not.toContain(w.ticket.uuid);
    expect(hidden.body).not.toContain("Ana");
    expect(hidden.body).not.toContain("Ventas");
    const created = await call(w.as.beto, "POST", "/tickets", { contactId: w.contact.id, queueId: w.sales.id });
    expectError(created, 409, "ERR_OTHER_OPEN_TICKET");
    expect(created.json().data).toBeUndefined();

    // Ana and staff learn which one and whose
    const mine = await call(w.as.ana, "POST", "/tickets", { contactId: w.contact.id, queueId: w.sales.id });
    expectError(mine, 409, "ERR_OTHER_OPEN_TICKET");
    expect(mine.json().data).toEqual({
      ticketId: w.ticket.id,
      uuid: w.ticket.uuid,
      userId: w.ana.id,
      userName: "Ana",
      queueName: "Ventas",
    });
    const staff = await call(w.admin, "PUT", `/tickets/${closed.id}`, { status: "open", userId: w.company.admin.id });
    expectError(staff, 409, "ERR_OTHER_OPEN_TICKET");
    expect(staff.json().data).toMatchObject({ ticketId: w.ticket.id, userName: "Ana", queueName: "Ventas" });
  });

  it("an agent opens tickets only in their own queues; staff in any", async () => {
    const w = await world();
    const other = await buildContact(t.app, w.companyId);
    expectError(
      await call(w.as.beto, "POST", "/tickets", { contactId: other.id, queueId: w.support.id }),
      403,
      "ERR_QUEUE_NOT_ALLOWED",
    );
    expect(await t.app.charla.db.select().from(tickets).where(eq(tickets.contactId, other.id))).toEqual([]);
    const own = await call(w.as.beto, "POST", "/tickets", { contactId: other.id, queueId: w.sales.id });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ queueId: w.sales.id, userId: w.beto.id });

    const third = await buildContact(t.app, w.companyId);
    const bySub = await call(w.as.sub, "POST", "/tickets", { contactId: third.id, queueId: w.support.id });
    expect(bySub.statusCode).toBe(201);
    expect(bySub.json()).toMatchObject({ queueId: w.support.id });
  });
});
