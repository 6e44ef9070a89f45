import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelEvents } from "../../channels/driver.js";
import { SIMULATOR_BOOK } from "../../channels/simulator/driver.js";
import { messages, quickMessages, tickets, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import {
  addUserQueue,
  as,
  buildCompany,
  buildContact,
  buildMessage,
  buildQueue,
  buildTag,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
} from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { applyAck } from "./acks.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** An agent of the one queue with an open ticket of theirs, and a colleague of no queue. */
async function world() {
  const w = await scenario(t.app, {
    queues: { queue: {} },
    agents: { agent: { name: "Agente Uno", queues: ["queue"] }, outsider: { name: "Fuera" } },
  });
  const contact = await w.contact({ name: "Cliente Mensajes" });
  const ticket = await w.ticket({ contactId: contact.id, status: "open", userId: w.agent.id });
  return { ...w, contact, ticket };
}

function multipart(fields: Record<string, string>, files: { name: string; type: string; data: Buffer }[]) {
  const boundary = "----charla-test-boundary";
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from("\r\n"),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** The events `toUsers` sends under one name while it is patched; `restore` puts the real one back. */
function capture(name: string) {
  const events: { userIds: number[]; payload: unknown }[] = [];
  const original = t.app.charla.realtime.toUsers;
  t.app.charla.realtime.toUsers = (companyId, userIds) => ({
    emit: (event: string, payload: unknown) => {
      if (event === name) events.push({ userIds, payload });
      original(companyId, userIds).emit(event, payload);
    },
  });
  const restore = () => {
    t.app.charla.realtime.toUsers = original;
  };
  return { events, restore };
}

const waitFor = async (check: () => Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("condition not met in time");
};

describe("#messages send", () => {
  it("sends text to the simulator, records it and raises its acks live", async () => {
    const w = await world();
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Hola, ¿en qué le ayudo?" });
    expect(res.statusCode).toBe(201);
    const [sent] = res.json();
    expect(sent).toMatchObject({ body: "Hola, ¿en qué le ayudo?", fromMe: true, mediaType: "chat" });
    expect(sent.ack).toBeGreaterThanOrEqual(1);
    const [ticket] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(ticket.lastMessage).toBe("Hola, ¿en qué le ayudo?");
    // the simulated phone confirms delivery by itself: 3 on WhatsApp's scale, two grey ticks
    await waitFor(async () => (await t.app.charla.db.select().from(messages).where(eq(messages.id, sent.id)))[0].ack === 3);
    const outbound = await call(w.admin, "GET", `/simulator/${w.connection.id}/outbound?number=${w.contact.number}`);
    expect(outbound.json()).toEqual([expect.objectContaining({ id: sent.id, ack: 3, ackError: null })]);
    // it reads only when its customer does: 4, two blue ticks, live to the agent
    const live = capture(Events.appMessage(w.companyId));
    try {
      const read = await call(w.admin, "POST", `/simulator/${w.connection.id}/read`, { number: w.contact.number });
      expect(read.json()).toEqual({ read: 1 });
    } finally {
      live.restore();
    }
    expect(live.events).toEqual([
      {
        userIds: expect.arrayContaining([w.agent.id]),
        payload: expect.objectContaining({ action: "update", message: expect.objectContaining({ id: sent.id, ack: 4 }) }),
      },
    ]);
    const listed = await call(w.as.agent, "GET", `/messages/${w.ticket.id}`);
    expect(listed.json().messages.at(-1)).toMatchObject({ id: sent.id, ack: 4, ackError: null });
  });

  it("records a channel's failure as -1 with its reason; a later success replaces it, a late failure changes nothing", async () => {
    const w = await world();
    const [sent] = (await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "¿Me lees?" })).json();
    const [row] = await t.app.charla.db.select().from(messages).where(eq(messages.id, sent.id));
    const ref = { companyId: w.companyId, whatsappId: w.connection.id };
    const channelId = row.channelId as string;
    await waitFor(async () => (await t.app.charla.db.select().from(messages).where(eq(messages.id, sent.id)))[0].ack === 3);
    // delivered already: a late error report does not turn grey ticks into an error mark
    expect(await applyAck(t.app.charla, ref, channelId, -1, "ERR_SENDING_WAPP_MSG")).toEqual([]);
    await t.app.charla.db.update(messages).set({ ack: 1 }).where(eq(messages.id, sent.id));
    const [failed] = await applyAck(t.app.charla, ref, channelId, -1, "ERR_SENDING_WAPP_MSG");
    expect(failed).toMatchObject({ ack: -1, ackError: "ERR_SENDING_WAPP_MSG" });
    const listed = await call(w.as.agent, "GET", `/messages/${w.ticket.id}`);
    expect(listed.json().messages.at(-1)).toMatchObject({ id: sent.id, ack: -1, ackError: "ERR_SENDING_WAPP_MSG" });
    // another connection's message of the same channel id is not touched
    expect(await applyAck(t.app.charla, { ...ref, whatsappId: ref.whatsappId + 1_000_000 }, channelId, 4)).toEqual([]);
    const [delivered] = await applyAck(t.app.charla, ref, channelId, 3);
    expect(delivered).toMatchObject({ ack: 3, ackError: null });
  });

  it("raises a burst of acks together: each message to its highest ack, each caller answered with its row, one event per change", async () => {
    const w = await world();
    const sent = [];
    for (const body of ["uno", "dos", "tres"])
      sent.push((await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body })).json()[0]);
    const ids = sent.map((m) => m.id);
    const ackOf = async () =>
      (await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id))).filter((m) => ids.includes(m.id));
    await waitFor(async () => (await ackOf()).every((m) => m.ack === 3));
    // as if the phone had not confirmed yet: the burst below is what it would send
    await t.app.charla.db.update(messages).set({ ack: 1 }).where(eq(messages.ticketId, w.ticket.id));
    const rows = await ackOf();
    const ref = { companyId: w.companyId, whatsappId: w.connection.id };
    const live = capture(Events.appMessage(w.companyId));
    let answers: (typeof messages.$inferSelect)[][];
    try {
      answers = await Promise.all(
        rows.flatMap((m) => [
          applyAck(t.app.charla, ref, m.channelId as string, 2),
          applyAck(t.app.charla, ref, m.channelId as string, 4),
        ]),
      );
    } finally {
      live.restore();
    }
    expect((await ackOf()).map((m) => m.ack)).toEqual([4, 4, 4]);
    // every caller learns its message was there (no early-ack retry), at its ack or higher: the first
    // is written alone at once, those arriving meanwhile together, each message once at its highest
    answers.forEach((answer, i) => {
      expect(answer).toEqual([expect.objectContaining({ channelId: rows[Math.floor(i / 2)].channelId })]);
      expect(answer[0].ack).toBeGreaterThanOrEqual(i % 2 === 0 ? 2 : 4);
    });
    const updates = live.events.map((e) => (e.payload as { message: { id: number; ack: number } }).message);
    expect(
      updates
        .filter((m) => m.ack === 4)
        .map((m) => m.id)
        .sort(),
    ).toEqual([...ids].sort());
    // a stale ack changes nothing and answers nothing
    expect(await applyAck(t.app.charla, ref, rows[0].channelId as string, 3)).toEqual([]);
  });

  it("signs admins' text with their name, ignores the option for agents, refuses blank text", async () => {
    const w = await world();
    const signed = await call(w.admin, "POST", `/messages/${w.ticket.id}`, { body: "Listo", sign: true });
    expect(signed.json()[0].body).toBe(`*${w.company.admin.name}*\nListo`);
    const agent = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Listo", sign: true });
    expect(agent.json()[0].body).toBe("Listo");
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "   \n " }), 400, "ERR_VALIDATION");
  });

  it("answers only open tickets of the caller (staff any), through a running connection", async () => {
    const w = await world();
    const pending = await buildTicket(t.app, w.companyId, {
      contactId: (await buildContact(t.app, w.companyId)).id,
      whatsappId: w.connection.id,
      queueId: w.queue.id,
    });
    expectError(await call(w.as.agent, "POST", `/messages/${pending.id}`, { body: "x" }), 409, "ERR_TICKET_NOT_OPEN");
    expectError(await call(w.as.outsider, "POST", `/messages/${w.ticket.id}`, { body: "x" }), 404, "ERR_NO_TICKET_FOUND");
    const beta = await buildWhatsapp(t.app, w.companyId, { provider: "beta" });
    const offline = await buildTicket(t.app, w.companyId, {
      contactId: (await buildContact(t.app, w.companyId)).id,
      whatsappId: beta.id,
      status: "open",
      userId: w.company.admin.id,
    });
    expectError(await call(w.admin, "POST", `/messages/${offline.id}`, { body: "x" }), 400, "ERR_WAPP_NOT_INITIALIZED");
    // a connection switched off stays off: sending through it does not bring it back
    await t.app.charla.sessions.logout(w.companyId, w.connection.id);
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "x" }), 400, "ERR_WAPP_NOT_INITIALIZED");
    const [conn] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, w.connection.id));
    expect(conn.status).toBe("DISCONNECTED");
    expect(await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, offline.id))).toEqual([]);
  });

  it("sends several files as multipart, the text as the first one's caption; media only to who may see it", async () => {
    const w = await world();
    const form = multipart({ body: "Su factura", quotedMsg: "null" }, [
      { name: "foto.png", type: "image/png", data: PNG },
      { name: "factura.pdf", type: "application/pdf", data: Buffer.from("%PDF-1.4 test") },
    ]);
    const res = await as(t.app, w.as.agent, { method: "POST", url: `/api/v1/messages/${w.ticket.id}`, ...form });
    expect(res.statusCode).toBe(201);
    const [image, pdf] = res.json();
    expect(image).toMatchObject({ mediaType: "image", body: "Su factura", mediaName: "foto.png" });
    expect(pdf).toMatchObject({ mediaType: "application", body: "", mediaName: "factura.pdf" });

    const file = await as(t.app, w.as.agent, { method: "GET", url: image.mediaUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const doc = await as(t.app, w.admin, { method: "GET", url: pdf.mediaUrl });
    expect(doc.headers["content-disposition"]).toContain("inline");
    expect(doc.headers["x-content-type-options"]).toBe("nosniff");
    expectError(await as(t.app, w.as.outsider, { method: "GET", url: image.mediaUrl }), 404, "ERR_NO_MESSAGE_FOUND");
    const foreign = await login(t.app, (await buildCompany(t.app)).admin);
    expectError(await as(t.app, foreign, { method: "GET", url: image.mediaUrl }), 404, "ERR_NO_MESSAGE_FOUND");
    expect((await t.app.inject({ method: "GET", url: image.mediaUrl })).statusCode).toBe(401);
  });

  it("quotes a message of the conversation, not one of another ticket", async () => {
    const w = await world();
    const theirs = await buildMessage(t.app, w.ticket, { body: "¿Precio?" });
    const quoted = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "100", quotedMsg: { id: theirs.id } });
    expect(quoted.json()[0].quotedMsg).toMatchObject({ id: theirs.id, body: "¿Precio?" });
    const elsewhere = await buildTicket(t.app, w.companyId, {
      contactId: (await buildContact(t.app, w.companyId)).id,
      whatsappId: w.connection.id,
    });
    const foreignMsg = await buildMessage(t.app, elsewhere);
    expectError(
      await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "x", quotedMsg: { id: foreignMsg.id } }),
      404,
      "ERR_NO_MESSAGE_FOUND",
    );
  });
});

describe("#messages list, read and delete", () => {
  it("pages from the newest, each page oldest first as the family's clients read it; opening reads the ticket (updateUnread), a peek does not", async () => {
    const w = await world();
    for (let i = 0; i < 25; i++)
      await buildMessage(t.app, w.ticket, { body: `m${i}`, createdAt: new Date(Date.now() - (25 - i) * 1000) });
    await t.app.charla.db.update(tickets).set({ unreadMessages: 25 }).where(eq(tickets.id, w.ticket.id));

    const peek = await call(w.admin, "GET", `/messages/${w.ticket.id}?peek=true`);
    expect(peek.json()).toMatchObject({ count: 25, hasMore: true, ticket: { unreadMessages: 25 } });
    // page 1: the newest 20 (m5..m24), oldest first
    expect(peek.json().messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));

    const events: unknown[] = [];
    const original = t.app.charla.realtime.toUsers;
    t.app.charla.realtime.toUsers = (companyId, userIds) => ({
      emit: (event: string, payload: unknown) => {
        if (event === Events.ticket(companyId)) events.push({ userIds, payload });
      },
    });
    try {
      const page1 = await call(w.as.agent, "GET", `/messages/${w.ticket.id}`);
      expect(page1.json().ticket.unreadMessages).toBe(0);
      expect(page1.json().messages).toHaveLength(20);
    } finally {
      t.app.charla.realtime.toUsers = original;
    }
    expect(events).toEqual([
      {
        userIds: expect.arrayContaining([w.agent.id, w.company.admin.id]),
        payload: { action: "updateUnread", ticketId: w.ticket.id },
      },
    ]);
    const page2 = await call(w.as.agent, "GET", `/messages/${w.ticket.id}?pageNumber=2`);
    expect(page2.json().messages.map((m: { body: string }) => m.body)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(page2.json().hasMore).toBe(false);
    const unread = await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, w.ticket.id));
    expect(unread.every((m) => m.read)).toBe(true);
  });

  it("brings the contact's earlier conversations on the connection, never later or other connections'", async () => {
    const w = await world();
    // the contact's earlier ticket: a closed one, older than the world's own (ids give the order)
    const [earlier] = await t.app.charla.db
      .update(tickets)
      .set({ status: "closed" })
      .where(eq(tickets.id, w.ticket.id))
      .returning();
    w.ticket = await buildTicket(t.app, w.companyId, {
      contactId: w.contact.id,
      whatsappId: w.connection.id,
      status: "open",
      userId: w.agent.id,
      queueId: w.queue.id,
    });
    const old = await buildMessage(t.app, earlier, { body: "la vez pasada", createdAt: new Date(Date.now() - 86_000_000) });
    const now = await buildMessage(t.app, w.ticket, { body: "hoy" });
    const other = await buildWhatsapp(t.app, w.companyId, { provider: "simulator" });
    const elsewhere = await buildTicket(t.app, w.companyId, { contactId: w.contact.id, whatsappId: other.id, status: "closed" });
    await buildMessage(t.app, elsewhere, { body: "por otra línea" });
    const page = (await call(w.as.agent, "GET", `/messages/${w.ticket.id}`)).json();
    expect(page.messages.map((m: { id: number; ticketId: number }) => [m.id, m.ticketId])).toEqual([
      [old.id, earlier.id],
      [now.id, w.ticket.id],
    ]);
    const olderView = (await call(w.admin, "GET", `/messages/${earlier.id}`)).json();
    expect(olderView.messages.map((m: { id: number }) => m.id)).toEqual([old.id]);

    // an earlier conversation of another area stays out of an agent's thread (core §6)
    const otherArea = await buildQueue(t.app, w.companyId);
    await t.app.charla.db.update(tickets).set({ queueId: otherArea.id, userId: null }).where(eq(tickets.id, earlier.id));
    const agentView = (await call(w.as.agent, "GET", `/messages/${w.ticket.id}`)).json();
    expect(agentView.messages.map((m: { id: number }) => m.id)).toEqual([now.id]);
  });

  it("deletes own messages for everyone, never the contact's", async () => {
    const w = await world();
    const [mine] = (await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "borrar" })).json();
    const theirs = await buildMessage(t.app, w.ticket, { body: "del cliente" });
    expectError(await call(w.as.agent, "DELETE", `/messages/${theirs.id}`), 400, "ERR_DELETE_WAPP_MSG");
    expectError(await call(w.as.outsider, "DELETE", `/messages/${mine.id}`), 404, "ERR_NO_MESSAGE_FOUND");
    // a colleague of the same area does not see another agent's open ticket, so nor its messages
    const colleague = await buildUser(t.app, w.companyId);
    await addUserQueue(t.app, w.companyId, colleague.id, w.queue.id);
    expectError(await call(await login(t.app, colleague), "DELETE", `/messages/${mine.id}`), 404, "ERR_NO_MESSAGE_FOUND");
    expect((await call(w.as.agent, "DELETE", `/messages/${mine.id}`)).statusCode).toBe(204);
    const [row] = await t.app.charla.db.select().from(messages).where(eq(messages.id, mine.id));
    expect(row.isDeleted).toBe(true);
    expectError(await call(w.as.agent, "DELETE", `/messages/${mine.id}`), 400, "ERR_DELETE_WAPP_MSG");
  });

  it("refuses to delete for everyone a message older than WhatsApp allows: ERR_FETCH_WAPP_MSG, nothing changed", async () => {
    const w = await world();
    const [old] = (await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "de hace días" })).json();
    await waitFor(async () => (await t.app.charla.db.select().from(messages).where(eq(messages.id, old.id)))[0].ack > 0);
    await t.app.charla.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 61 * 3_600_000) })
      .where(eq(messages.id, old.id));
    const res = await call(w.as.agent, "DELETE", `/messages/${old.id}`);
    expectError(res, 400, "ERR_FETCH_WAPP_MSG");
    const [row] = await t.app.charla.db.select().from(messages).where(eq(messages.id, old.id));
    expect(row.isDeleted).toBe(false);
    // within the window it goes
    await t.app.charla.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 59 * 3_600_000) })
      .where(eq(messages.id, old.id));
    expect((await call(w.as.agent, "DELETE", `/messages/${old.id}`)).statusCode).toBe(204);
  });

  it("takes a deleted message's text off the ticket's last message, with a ticket update", async () => {
    const w = await world();
    await buildMessage(t.app, w.ticket, { body: "*Hola*, ¿qué tal?", createdAt: new Date(Date.now() - 60_000) });
    const [mine] = (await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Precio secreto: 100" })).json();
    const before = (await t.app.charla.db.select().from(tickets).where(eq(tickets.id, w.ticket.id)))[0];
    expect(before.lastMessage).toBe("Precio secreto: 100");
    const live = capture(Events.ticket(w.companyId));
    try {
      expect((await call(w.as.agent, "DELETE", `/messages/${mine.id}`)).statusCode).toBe(204);
    } finally {
      live.restore();
    }
    const [after] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(after.lastMessage).toBe("*Hola*, ¿qué tal?");
    // the list keeps its order: a deletion is no new activity
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(live.events).toEqual([
      {
        userIds: expect.arrayContaining([w.agent.id]),
        payload: { action: "update", ticket: expect.objectContaining({ id: w.ticket.id, lastMessage: "*Hola*, ¿qué tal?" }) },
      },
    ]);
    const listed = await call(w.as.agent, "GET", `/tickets?status=open`);
    expect(listed.json().tickets.find((x: { id: number }) => x.id === w.ticket.id).lastMessage).toBe("*Hola*, ¿qué tal?");

    // the contact deleting their message for everyone does the same
    const theirs = await buildMessage(t.app, w.ticket, { body: "me equivoqué" });
    await t.app.charla.db.update(tickets).set({ lastMessage: "me equivoqué" }).where(eq(tickets.id, w.ticket.id));
    const driver = await t.app.charla.sessions.driverFor(w.companyId, w.connection.id);
    await (driver as unknown as { ctx: { events: ChannelEvents } }).ctx.events.revoked(theirs.channelId as string);
    expect((await t.app.charla.db.select().from(tickets).where(eq(tickets.id, w.ticket.id)))[0].lastMessage).toBe(
      "*Hola*, ¿qué tal?",
    );
  });
});

describe("#notes, tags, quick replies, contacts import", () => {
  it("adds, lists and deletes notes of a visible ticket", async () => {
    const w = await world();
    const body = { ticketId: w.ticket.id, contactId: w.contact.id };
    expectError(await call(w.as.agent, "POST", "/ticket-notes", { ...body, note: "x" }), 400, "ERR_VALIDATION");
    const note = await call(w.as.agent, "POST", "/ticket-notes", { ...body, note: "Cliente VIP" });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({ note: "Cliente VIP", user: { id: w.agent.id, name: "Agente Uno" } });
    expectError(await call(w.as.outsider, "POST", "/ticket-notes", { ...body, note: "Hola" }), 404, "ERR_NO_TICKET_FOUND");
    const listed = await call(w.as.agent, "GET", `/ticket-notes/list?contactId=${w.contact.id}&ticketId=${w.ticket.id}`);
    expect(listed.json()).toEqual([expect.objectContaining({ id: note.json().id })]);
    expectError(await call(w.as.outsider, "DELETE", `/ticket-notes/${note.json().id}`), 404, "ERR_NO_NOTE_FOUND");
    expect((await call(w.admin, "DELETE", `/ticket-notes/${note.json().id}`)).statusCode).toBe(204);
  });

  it("creates tags, refuses duplicates and foreign tags when syncing", async () => {
    const w = await world();
    const created = await call(w.as.agent, "POST", "/tags", { name: "Urgente", color: "#ff0000" });
    expect(created.statusCode).toBe(201);
    expectError(await call(w.as.agent, "POST", "/tags", { name: "Urgente" }), 409, "ERR_TAG_NAME_EXISTS");
    expectError(await call(w.as.agent, "POST", "/tags", { name: "ab" }), 400, "ERR_VALIDATION");
    const foreign = await buildTag(t.app, (await buildCompany(t.app)).id);
    const bad = await call(w.as.agent, "POST", "/tags/sync", { ticketId: w.ticket.id, tags: [{ id: foreign.id }] });
    expectError(bad, 404, "ERR_NO_TAG_FOUND");
    const ok = await call(w.as.agent, "POST", "/tags/sync", { ticketId: w.ticket.id, tags: [{ id: created.json().id }] });
    expect(ok.json().tags).toEqual([{ id: created.json().id, name: "Urgente", color: "#ff0000" }]);
    const list = await call(w.as.agent, "GET", "/tags/list");
    expect(list.json()).toEqual([expect.objectContaining({ name: "Urgente", ticketsCount: 1 })]);
  });

  it("lists shared quick replies and the caller's own", async () => {
    const w = await world();
    await t.app.charla.db.insert(quickMessages).values([
      { companyId: w.companyId, shortcode: "hola", message: "¡Hola! ¿En qué puedo ayudarle?", geral: true },
      { companyId: w.companyId, shortcode: "mio", message: "Solo mío", geral: false, userId: w.agent.id },
      { companyId: w.companyId, shortcode: "ajeno", message: "De otro", geral: false, userId: w.company.admin.id },
    ]);
    const res = await call(w.as.agent, "GET", "/quick-messages/list");
    expect(res.json().map((m: { shortcode: string }) => m.shortcode)).toEqual(["hola", "mio"]);
  });

  it("imports the connection's address book once", async () => {
    const w = await world();
    const first = await call(w.as.agent, "POST", "/contacts/import", {});
    expect(first.json()).toEqual({ imported: SIMULATOR_BOOK.length, existing: 0 });
    const again = await call(w.as.agent, "POST", "/contacts/import", { whatsappId: w.connection.id });
    expect(again.json()).toEqual({ imported: 0, existing: SIMULATOR_BOOK.length });
    const foreignWa = await buildWhatsapp(t.app, (await buildCompany(t.app)).id, { provider: "simulator" });
    expectError(await call(w.as.agent, "POST", "/contacts/import", { whatsappId: foreignWa.id }), 404, "ERR_NO_WAPP_FOUND");
  });
});
