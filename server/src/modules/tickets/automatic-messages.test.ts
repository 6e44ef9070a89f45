import { BOT_HOLD_MS, type SettingKey } from "@charla/contracts";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, queues, tickets, type whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { setSetting } from "../../test/chatbot-kit.js";
import { caller } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { RATING_SCALE, ratingQuestion } from "../../chatbot/rating-question.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const db = () => t.app.charla.db;
const GREETING = "(Buenos días|Buenas tardes|Buenas noches)";
/** YYYYMMDD in the zone, as {{protocol}} starts. */
const today = (zone = "America/Noronha") =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date()).replaceAll("-", "");

async function world(connection: Partial<typeof whatsapps.$inferInsert> = {}) {
  const w = await scenario(t.app, {
    connection,
    queues: { sales: { name: "Ventas", timeZone: "America/Mexico_City" }, support: "Soporte" },
    agents: { ana: { name: "Ana López", queues: ["sales"] }, beto: { name: "Beto" } },
  });
  const ticket = (values: Partial<typeof tickets.$inferInsert> = {}, contact = {}) =>
    w.ticket(values, { name: "Lucía Fernández", email: "lucia@example.com", ...contact });
  const set = (key: SettingKey, value: "enabled" | "disabled") => setSetting(t, w.companyId, key, value);
  return { ...w, ticket, set };
}

const automatic = (ticketId: number) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.isAutomatic, true)))
    .orderBy(asc(messages.id));
const put = (s: { token: string }, id: number, body: object) => call(s, "PUT", `/tickets/${id}`, body);
/** A conversation the contact left in the bot's menus a while ago: its area's agents may take it (issue 26). */
const leftInBot = () => ({ chatbot: true, updatedAt: new Date(Date.now() - BOT_HOLD_MS - 60_000) });

describe("#tickets accept message (sendGreetingAccepted)", () => {
  it("greets the contact by first name with the agent's name, and stops the bot", async () => {
    const w = await world();
    await w.set("sendGreetingAccepted", "enabled");
    const tk = await w.ticket({ ...leftInBot(), queueOptionId: 7 });
    const res = await put(w.as.ana, tk.id, { status: "open", userId: w.ana.id });
    expect(res.json()).toMatchObject({ status: "open", chatbot: false });
    // recorded with the accept, sent by its job right after the commit
    await t.app.charla.events.idle();
    const sent = await automatic(tk.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ fromMe: true, isAutomatic: true, userId: null });
    expect(sent[0].body).toMatch(
      new RegExp(`^${GREETING} \\*Lucía\\*, mi nombre es \\*Ana López\\* y ahora voy a atenderte\\.$`),
    );
    expect(sent[0].ack).toBeGreaterThanOrEqual(1);
    const [stored] = await db().select().from(tickets).where(eq(tickets.id, tk.id));
    expect(stored).toMatchObject({ chatbot: false, queueOptionId: null });
  });

  it("sends nothing when the setting is off, nor to a group; the bot stops all the same", async () => {
    const w = await world();
    const off = await w.ticket({ ...leftInBot(), queueOptionId: 3 });
    const res = await put(w.as.ana, off.id, { status: "open", userId: w.ana.id });
    expect(res.json()).toMatchObject({ chatbot: false });
    expect(await automatic(off.id)).toEqual([]);

    await w.set("sendGreetingAccepted", "enabled");
    const group = await w.ticket({ isGroup: true }, { isGroup: true, name: "Grupo Ventas" });
    expect((await put(w.as.ana, group.id, { status: "open", userId: w.ana.id })).statusCode).toBe(200);
    expect(await automatic(group.id)).toEqual([]);
  });
});

describe("#tickets transfer message (sendMsgTransfTicket)", () => {
  it("sends the connection's transferMessage with its variables filled", async () => {
    const w = await world({
      transferMessage: "Hola {{firstName}}, te pasamos a {{queue}} con {{user}}. Protocolo {{protocol}} ({{email}})",
    });
    await w.set("sendMsgTransfTicket", "enabled");
    const tk = await w.ticket({ status: "open", userId: w.ana.id });
    const res = await put(w.admin, tk.id, { queueId: w.support.id, userId: w.beto.id, status: "open" });
    expect(res.statusCode).toBe(200);
    const sent = await automatic(tk.id);
    expect(sent.map((m) => m.body)).toEqual([
      `Hola Lucía, te pasamos a Soporte con Beto. Protocolo ${today()}${tk.id} (lucia@example.com)`,
    ]);
  });

  it("names the new area or agent when the connection has no text; nothing when the setting is off or for groups", async () => {
    const w = await world();
    const off = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.admin, off.id, { queueId: w.support.id, userId: null, status: "pending" });
    expect(await automatic(off.id)).toEqual([]);

    await w.set("sendMsgTransfTicket", "enabled");
    const toQueue = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.admin, toQueue.id, { queueId: w.support.id, userId: null, status: "pending" });
    expect((await automatic(toQueue.id)).map((m) => m.body)).toEqual([
      "*Mensaje automático:* su atención fue transferida al área *Soporte*. En breve será atendido.",
    ]);
    const toUser = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.admin, toUser.id, { queueId: w.sales.id, userId: w.beto.id, status: "open" });
    expect((await automatic(toUser.id)).map((m) => m.body)).toEqual([
      "*Mensaje automático:* su atención fue transferida a *Beto*. En breve será atendido.",
    ]);
    const group = await w.ticket({ status: "open", userId: w.ana.id, isGroup: true }, { isGroup: true });
    await put(w.admin, group.id, { queueId: w.support.id, userId: null, status: "pending" });
    expect(await automatic(group.id)).toEqual([]);
  });
});

describe("#tickets resolve: rating question or completion message", () => {
  it("asks for a rating when userRating is on and an agent served it; the ticket closes awaiting it; reopen clears it", async () => {
    const w = await world({ ratingMessage: "{{firstName}}, ¿cómo te atendió {{user}}?", complationMessage: "Gracias" });
    await w.set("userRating", "enabled");
    const tk = await w.ticket({ status: "open", userId: w.ana.id });
    const res = await put(w.as.ana, tk.id, { status: "closed" });
    expect(res.json()).toMatchObject({ status: "closed" });
    const sent = await automatic(tk.id);
    expect(sent.map((m) => m.body)).toEqual([`Lucía, ¿cómo te atendió Ana López?\n\n${RATING_SCALE}`]);
    expect(sent[0].body).toContain("1 - Insatisfecho\n2 - Satisfecho\n3 - Muy satisfecho");
    const [row] = await db().select().from(messages).where(eq(messages.ticketId, tk.id));
    expect(row.isAutomatic).toBe(true);
    const closed = await call(w.as.ana, "GET", `/tickets/${tk.id}`);
    expect(closed.json()).toMatchObject({ status: "closed" });
    const stored = async () => (await db().select().from(tickets).where(eq(tickets.id, tk.id)))[0];
    expect(await stored()).toMatchObject({ status: "closed", awaitingRating: true, ratingAsks: 1 });
    // it left the open list
    const open = await call(w.as.ana, "GET", "/tickets?status=open");
    expect(open.json().tickets.map((x: { id: number }) => x.id)).not.toContain(tk.id);

    expect((await put(w.as.ana, tk.id, { status: "open", userId: w.ana.id })).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ status: "open", awaitingRating: false, ratingAsks: 0 });
  });

  it("sends the completion message instead when rating is off, for a ticket nobody served, and never to groups", async () => {
    const w = await world({ complationMessage: "Gracias {{name}}, su protocolo es {{protocol}}." });
    const tk = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.as.ana, tk.id, { status: "closed" });
    // the ticket's queue (Ventas) is in Mexico City: the protocol's date is that zone's
    expect((await automatic(tk.id)).map((m) => m.body)).toEqual([
      `Gracias Lucía Fernández, su protocolo es ${today("America/Mexico_City")}${tk.id}.`,
    ]);

    await w.set("userRating", "enabled");
    const unserved = await w.ticket({ status: "pending" });
    await put(w.admin, unserved.id, { status: "closed" });
    expect((await automatic(unserved.id)).map((m) => m.body)).toEqual([
      `Gracias Lucía Fernández, su protocolo es ${today("America/Mexico_City")}${unserved.id}.`,
    ]);

    const group = await w.ticket({ status: "open", userId: w.ana.id, isGroup: true }, { isGroup: true });
    await put(w.as.ana, group.id, { status: "closed" });
    expect(await automatic(group.id)).toEqual([]);
  });

  it("lets the ticket's area speak for itself: its own completion and rating texts before the connection's", async () => {
    const w = await world({ complationMessage: "Gracias (conexión)", ratingMessage: "Califique (conexión)" });
    await db()
      .update(queues)
      .set({ complationMessage: "Ventas le agradece, {{firstName}}.", ratingMessage: "¿Cómo lo atendió Ventas?" })
      .where(eq(queues.id, w.sales.id));
    const tk = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.as.ana, tk.id, { status: "closed" });
    const inSupport = await w.ticket({ status: "open", userId: w.ana.id, queueId: w.support.id });
    await put(w.as.ana, inSupport.id, { status: "closed" });
    await w.set("userRating", "enabled");
    const rated = await w.ticket({ status: "open", userId: w.ana.id });
    await put(w.as.ana, rated.id, { status: "closed" });
    expect((await automatic(tk.id)).map((m) => m.body)).toEqual(["Ventas le agradece, Lucía."]);
    expect((await automatic(inSupport.id)).map((m) => m.body)).toEqual(["Gracias (conexión)"]);
    expect((await automatic(rated.id))[0].body).toMatch(/^¿Cómo lo atendió Ventas\?/);
  });

  it("closes silently when the connection has no completion message", async () => {
    const w = await world();
    const tk = await w.ticket({ status: "open", userId: w.ana.id });
    expect((await put(w.as.ana, tk.id, { status: "closed" })).json()).toMatchObject({ status: "closed" });
    expect(await automatic(tk.id)).toEqual([]);
  });
});

describe("ratingQuestion", () => {
  it("falls back to a default question and always ends with the scale", () => {
    expect(ratingQuestion("", { name: "Lucía" })).toBe(
      "Por favor, califique nuestra atención respondiendo con un número:\n\n1 - Insatisfecho\n2 - Satisfecho\n3 - Muy satisfecho",
    );
    expect(ratingQuestion("¿Qué tal, {{firstName}}?", { name: "Lucía Fernández" })).toBe(`¿Qué tal, Lucía?\n\n${RATING_SCALE}`);
  });
});
