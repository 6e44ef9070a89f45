import { Ack, Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChannelDriver, SendOptions, Sent, Share } from "../../channels/driver.js";
import type { Services } from "../../context.js";
import { messages, tickets } from "../../db/schema/index.js";
import { handleInbound } from "../../pipeline/inbound.js";
import { type TestApp, getIsolatedTestApp } from "../../test/app.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildMessage,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
} from "../../test/factories.js";
import { caller, expectError } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { INTERRUPTED_AFTER_SEC, failInterruptedSends } from "../../jobs/interrupted-sends.js";
import { sendToTicket } from "./send.js";

let t: TestApp;
beforeAll(async () => {
  t = await getIsolatedTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const db = () => t.app.charla.db;

type Call = {
  number: string;
  body: string;
  opts?: SendOptions;
  rowAtSend: typeof messages.$inferSelect | undefined;
  share?: Share;
};

/**
 * A driver that records each send together with what the database held at that moment, and
 * fails or succeeds as the test says. It answers under the id Charla chose, as WhatsApp Web does.
 */
function fakeDriver(behaviour: (n: number) => "ok" | "throw" = () => "ok") {
  const calls: Call[] = [];
  const send = async (number: string, body: string, opts?: SendOptions, share?: Share): Promise<Sent> => {
    const [rowAtSend] = opts?.messageId ? await db().select().from(messages).where(eq(messages.channelId, opts.messageId)) : [];
    calls.push({ number, body, opts, rowAtSend, ...(share ? { share } : {}) });
    if (behaviour(calls.length) === "throw") throw Object.assign(new Error("socket closed"), { code: "ERR_SENDING_WAPP_MSG" });
    return {
      channelId: opts?.messageId ?? `own-${calls.length}`,
      timestamp: new Date(),
      content: JSON.stringify({ conversation: body, n: calls.length }),
    };
  };
  const driver = {
    provider: "fake",
    sendText: (number: string, body: string, opts?: SendOptions) => send(number, body, opts),
    sendMedia: (number: string, media: { caption?: string }, opts?: SendOptions) => send(number, media.caption ?? "", opts),
    sendShared: (number: string, share: Share, opts?: SendOptions) => send(number, "", opts, share),
  } as unknown as ChannelDriver;
  return { driver, calls };
}

const originalDriverFor = () => t.app.charla.sessions.driverFor.bind(t.app.charla.sessions);
let restore: (() => void) | null = null;
function useDriver(driver: ChannelDriver) {
  const original = originalDriverFor();
  t.app.charla.sessions.driverFor = async () => driver;
  restore = () => {
    t.app.charla.sessions.driverFor = original;
  };
}
afterEach(() => {
  restore?.();
  restore = null;
});

/** An agent of the one queue with an open ticket of theirs, on a connection that is not the default. */
async function world() {
  const w = await scenario(t.app, {
    connection: { isDefault: false },
    queues: { queue: {} },
    agents: { agent: { queues: ["queue"] } },
  });
  const contact = await w.contact();
  const ticket = await w.ticket({ contactId: contact.id, status: "open", userId: w.agent.id });
  return { ...w, contact, ticket };
}

const rowsOf = (ticketId: number) => db().select().from(messages).where(eq(messages.ticketId, ticketId));

describe("#messages send, record first", () => {
  it("commits the row (queued, with the channel id the message will carry) before the driver is called", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Hola" });
    expect(res.statusCode).toBe(201);
    expect(fake.calls).toHaveLength(1);
    const [first] = fake.calls;
    // what another connection of the pool saw while the driver was sending: the row, already committed
    expect(first.rowAtSend).toMatchObject({ body: "Hola", ack: Ack.queued, fromMe: true, ticketId: w.ticket.id });
    expect(first.opts?.messageId).toMatch(/^3EB0[0-9A-F]{36}$/);
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: res.json()[0].id, channelId: first.opts?.messageId, ackError: null });
    // the message as the channel encoded it is kept for the channel's retry requests, and never shown
    expect(rows[0].channelContent).toBe(JSON.stringify({ conversation: "Hola", n: 1 }));
    expect(res.json()[0]).not.toHaveProperty("channelContent");
    expect(rows[0].ack).toBeGreaterThanOrEqual(Ack.pending);
  });

  it("keeps the row, marked failed with the reason, when the driver throws; the error answers the request", async () => {
    const w = await world();
    const fake = fakeDriver(() => "throw");
    useDriver(fake.driver);
    const seen: { event: string; payload: unknown }[] = [];
    const original = t.app.charla.realtime.toUsers;
    t.app.charla.realtime.toUsers = () => ({ emit: (event: string, payload: unknown) => seen.push({ event, payload }) });
    try {
      expectError(
        await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "¿Sigue ahí?" }),
        400,
        "ERR_SENDING_WAPP_MSG",
      );
    } finally {
      t.app.charla.realtime.toUsers = original;
    }
    expect(fake.calls).toHaveLength(1);
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: "¿Sigue ahí?", ack: Ack.failed, ackError: "ERR_SENDING_WAPP_MSG", userId: w.agent.id });
    // the agents see the message with its error mark, not nothing
    expect(seen).toContainEqual({
      event: Events.appMessage(w.companyId),
      payload: expect.objectContaining({
        action: "create",
        message: expect.objectContaining({ id: rows[0].id, ack: Ack.failed }),
      }),
    });
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(ticket.lastMessage).toBe("");
  });

  it("never calls the driver when the row cannot be recorded", async () => {
    const w = await world();
    const fake = fakeDriver();
    // the services of the request, with a database that refuses the message insert
    const real = t.app.charla;
    const failingDb = new Proxy(real.db, {
      get(target, prop, receiver) {
        if (prop === "insert")
          return (table: unknown) => {
            if (table === messages) throw Object.assign(new Error("insert refused"), { code: "53100" });
            return target.insert(table as typeof messages);
          };
        return Reflect.get(target, prop, receiver);
      },
    });
    const sessions = Object.assign(Object.create(real.sessions), { driverFor: async () => fake.driver });
    const s: Services = { ...real, db: failingDb, sessions };
    await expect(sendToTicket(s, w.companyId, w.ticket, { body: "no llega", userId: w.agent.id })).rejects.toThrow(
      "insert refused",
    );
    expect(fake.calls).toEqual([]);
    expect(await rowsOf(w.ticket.id)).toEqual([]);
  });

  it("sends once for a request repeated with the same clientId, one after the other or at the same time", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const body = { body: "Su pedido salió hoy", clientId: "c0ffee00-0000-4000-8000-000000000001" };
    const first = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    const again = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()[0].id).toBe(first.json()[0].id);
    const twice = { body: "Otro", clientId: "c0ffee00-0000-4000-8000-000000000002" };
    const together = await Promise.all([1, 2, 3].map(() => call(w.as.agent, "POST", `/messages/${w.ticket.id}`, twice)));
    expect(together.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(together.map((r) => r.json()[0].id)).size).toBe(1);
    expect(fake.calls.map((c) => c.body)).toEqual(["Su pedido salió hoy", "Otro"]);
    expect(await rowsOf(w.ticket.id)).toHaveLength(2);
    expectError(
      await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "x", clientId: "a:b" }),
      400,
      "ERR_VALIDATION",
    );
  });

  it("sends a failed message again on retry, under the same channel id and in the same row", async () => {
    const w = await world();
    const fake = fakeDriver((n) => (n === 1 ? "throw" : "ok"));
    useDriver(fake.driver);
    const body = { body: "Reintento", clientId: "retry-0001" };
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body), 400, "ERR_SENDING_WAPP_MSG");
    const retried = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    expect(retried.statusCode).toBe(201);
    const again = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    expect(again.json()[0].id).toBe(retried.json()[0].id);
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1].opts?.messageId).toBe(fake.calls[0].opts?.messageId);
    expect(fake.calls[1].rowAtSend).toMatchObject({ ack: Ack.queued, ackError: null });
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ack: Ack.pending, ackError: null, clientId: "retry-0001" });
  });

  it("marks a send cut off between record and driver as interrupted; its retry sends it once, under the same id", async () => {
    const w = await world();
    // the first driver call never comes back, as when the process dies while sending
    let cutOff: (err: Error) => void = () => undefined;
    const hanging = {
      provider: "fake",
      sendText: (_n: string, _b: string, opts?: SendOptions) =>
        new Promise<Sent>((_resolve, reject) => {
          hangingIds.push(opts?.messageId ?? "");
          cutOff = reject;
        }),
    } as unknown as ChannelDriver;
    const hangingIds: string[] = [];
    useDriver(hanging);
    const body = { body: "¿Llegó?", clientId: "crash-0001" };
    const lost = call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    await expect.poll(() => hangingIds.length).toBe(1);
    const [queued] = await rowsOf(w.ticket.id);
    expect(queued).toMatchObject({ ack: Ack.queued, body: "¿Llegó?" });

    // a young queued row is left alone; once older than any send may take, the sweep fails it
    await failInterruptedSends(t.app.charla);
    expect((await rowsOf(w.ticket.id))[0].ack).toBe(Ack.queued);
    await db()
      .update(messages)
      .set({ updatedAt: new Date(Date.now() - (INTERRUPTED_AFTER_SEC + 5) * 1000) })
      .where(eq(messages.id, queued.id));
    expect(await failInterruptedSends(t.app.charla)).toBeGreaterThanOrEqual(1);
    expect((await rowsOf(w.ticket.id))[0]).toMatchObject({ ack: Ack.failed, ackError: "ERR_SEND_INTERRUPTED" });

    restore?.();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const retried = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body);
    expect(retried.statusCode).toBe(201);
    expect(retried.json()[0].id).toBe(queued.id);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0].opts?.messageId).toBe(hangingIds[0]);
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].ack).toBeGreaterThanOrEqual(Ack.pending);
    // the dead send's late error changes nothing: the row is already sent
    cutOff(Object.assign(new Error("gone"), { code: "ERR_SENDING_WAPP_MSG" }));
    await lost;
    expect((await rowsOf(w.ticket.id))[0].ack).toBeGreaterThanOrEqual(Ack.pending);
  });

  it("keeps one row when the phone's echo of the message arrives before the send returns", async () => {
    const w = await world();
    const calls: string[] = [];
    const driver = {
      provider: "fake",
      sendText: async (number: string, body: string, opts?: SendOptions): Promise<Sent> => {
        const channelId = opts?.messageId ?? "x";
        calls.push(channelId);
        await handleInbound(
          t.app.charla,
          { companyId: w.companyId, whatsappId: w.connection.id },
          {
            channelId,
            number,
            fromMe: true,
            body,
            mediaType: "chat",
          },
        );
        return { channelId, timestamp: new Date() };
      },
    } as unknown as ChannelDriver;
    useDriver(driver);
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Eco" });
    expect(res.statusCode).toBe(201);
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channelId: calls[0], userId: w.agent.id });
  });

  it("merges the echo of a driver that picks its own id into one row", async () => {
    const w = await world();
    const driver = {
      provider: "fake",
      sendText: async (number: string, body: string): Promise<Sent> => {
        await handleInbound(
          t.app.charla,
          { companyId: w.companyId, whatsappId: w.connection.id },
          {
            channelId: "THEIR-OWN-ID",
            number,
            fromMe: true,
            body,
            mediaType: "chat",
          },
        );
        return { channelId: "THEIR-OWN-ID", timestamp: new Date() };
      },
    } as unknown as ChannelDriver;
    useDriver(driver);
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "Eco propio", clientId: "own-id-0001" });
    expect(res.statusCode).toBe(201);
    const rows = await rowsOf(w.ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: res.json()[0].id,
      channelId: "THEIR-OWN-ID",
      userId: w.agent.id,
      clientId: "own-id-0001",
    });
  });
});

describe("#messages send, locations and contact cards", () => {
  it("records a location in the body format of core §2 and sends it as a pin, quoting what it answers", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const asked = await buildMessage(t.app, w.ticket, { body: "¿Dónde están?" });
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, {
      body: "ignored",
      sign: true,
      location: { latitude: 19.4326, longitude: -99.1332, description: "Sucursal Centro\nAv. Juárez 10" },
      quotedMsg: { id: asked.id },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()[0]).toMatchObject({
      mediaType: "locationMessage",
      body: "|https://maps.google.com/maps?q=19.4326%2C-99.1332&z=17|Sucursal Centro\nAv. Juárez 10",
      quotedMsg: expect.objectContaining({ id: asked.id }),
    });
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0].share).toEqual({
      kind: "location",
      location: { latitude: 19.4326, longitude: -99.1332, description: "Sucursal Centro\nAv. Juárez 10" },
    });
    expect(fake.calls[0].opts?.quotedChannelId).toBe(asked.channelId);
    expect(fake.calls[0].rowAtSend).toMatchObject({ mediaType: "locationMessage", ack: Ack.queued });
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(ticket.lastMessage).toBe("📍 Sucursal Centro\nAv. Juárez 10");
  });

  it("records a contact card as a vCard whose name cannot forge fields, and sends it as a card", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, {
      contact: { name: "Soporte;\nTEL:+1999 Técnico", number: "+52 (55) 1234-5678" },
    });
    expect(res.statusCode).toBe(201);
    const vcard = res.json()[0].body as string;
    expect(res.json()[0].mediaType).toBe("vcard");
    expect(vcard.split("\n")).toEqual([
      "BEGIN:VCARD",
      "VERSION:3.0",
      "N:;Soporte  TEL:+1999 Técnico;;;",
      "FN:Soporte  TEL:+1999 Técnico",
      "TEL;type=CELL;waid=525512345678:+525512345678",
      "END:VCARD",
    ]);
    expect(fake.calls[0].share).toEqual({ kind: "contact", name: "Soporte  TEL:+1999 Técnico", vcard });
    const [ticket] = await db().select().from(tickets).where(eq(tickets.id, w.ticket.id));
    expect(ticket.lastMessage).toBe("👤 Soporte  TEL:+1999 Técnico");
  });

  it("sends a failed location again from its recorded row, and refuses bad or double shares without recording", async () => {
    const w = await world();
    const fake = fakeDriver((n) => (n === 1 ? "throw" : "ok"));
    useDriver(fake.driver);
    const body = { location: { latitude: -23.55, longitude: -46.63 }, clientId: "share-0001" };
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body), 400, "ERR_SENDING_WAPP_MSG");
    expect((await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, body)).statusCode).toBe(201);
    expect(fake.calls.map((c) => c.share)).toEqual([
      { kind: "location", location: { latitude: -23.55, longitude: -46.63 } },
      { kind: "location", location: { latitude: -23.55, longitude: -46.63 } },
    ]);
    expect(fake.calls[1].opts?.messageId).toBe(fake.calls[0].opts?.messageId);
    for (const bad of [
      { location: { latitude: 91, longitude: 0 } },
      { location: { latitude: "19", longitude: 0 } },
      { contact: { name: "", number: "5511" } },
      { contact: { name: "Ana", number: "javascript:alert(1)" } },
      { location: { latitude: 1, longitude: 1 }, contact: { name: "Ana", number: "5511112222" } },
    ])
      expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, bad), 400, "ERR_VALIDATION");
    expect(await rowsOf(w.ticket.id)).toHaveLength(1);
    expect(fake.calls).toHaveLength(2);
  });

  it("reaches the simulated phone, which shows the pin and the card", async () => {
    const w = await world();
    const res = await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { contact: { name: "Ana", number: "5511112222" } });
    expect(res.statusCode).toBe(201);
    const thread = await call(w.admin, "GET", `/simulator/${w.connection.id}/messages?number=${w.contact.number}`);
    expect(thread.statusCode).toBe(200);
    expect(thread.json()).toContainEqual(expect.objectContaining({ side: "agent", mediaType: "vcard" }));
  });
});

describe("#messages send, quotes", () => {
  it("refuses to quote a message of a ticket the caller cannot see, or of another company, and sends nothing", async () => {
    const w = await world();
    const fake = fakeDriver();
    useDriver(fake.driver);
    // the same contact's conversation served by a colleague: an agent does not see it (core §6)
    const colleague = await buildUser(t.app, w.companyId);
    const otherWa = await buildWhatsapp(t.app, w.companyId, { provider: "simulator" });
    const hidden = await buildTicket(t.app, w.companyId, {
      contactId: w.contact.id,
      whatsappId: otherWa.id,
      queueId: w.queue.id,
      status: "open",
      userId: colleague.id,
    });
    const secret = await buildMessage(t.app, hidden, { body: "dato privado" });
    expectError(
      await call(w.as.agent, "POST", `/messages/${w.ticket.id}`, { body: "x", quotedMsg: { id: secret.id } }),
      404,
      "ERR_NO_MESSAGE_FOUND",
    );
    const other = await buildCompany(t.app);
    const foreignWa = await buildWhatsapp(t.app, other.id, { provider: "simulator" });
    const foreignTicket = await buildTicket(t.app, other.id, {
      contactId: (await buildContact(t.app, other.id)).id,
      whatsappId: foreignWa.id,
    });
    const foreign = await buildMessage(t.app, foreignTicket, { body: "de otra empresa" });
    expectError(
      await call(w.admin, "POST", `/messages/${w.ticket.id}`, { body: "x", quotedMsg: { id: foreign.id } }),
      404,
      "ERR_NO_MESSAGE_FOUND",
    );
    expect(fake.calls).toEqual([]);
    expect(await rowsOf(w.ticket.id)).toEqual([]);
    // staff see the colleague's ticket, so they may quote it; the quote goes with the reply
    const ok = await call(w.admin, "POST", `/messages/${w.ticket.id}`, { body: "visto", quotedMsg: { id: secret.id } });
    expect(ok.statusCode).toBe(201);
    expect(fake.calls[0].opts?.quotedChannelId).toBe(secret.channelId);
  });

  it("shows typing on the contact's phone for whoever may answer the ticket, and never fails on the channel", async () => {
    const w = await world();
    const typed: [string, boolean, SendOptions | undefined][] = [];
    const driver = {
      provider: "fake",
      typing: async (number: string, on: boolean, opts?: SendOptions) => void typed.push([number, on, opts]),
    } as unknown as ChannelDriver;
    useDriver(driver);
    expect((await call(w.as.agent, "POST", `/messages/${w.ticket.id}/typing`, { typing: true })).statusCode).toBe(204);
    expect((await call(w.admin, "POST", `/messages/${w.ticket.id}/typing`, { typing: false })).statusCode).toBe(204);
    expect(typed).toEqual([
      [w.contact.number, true, { isGroup: false }],
      [w.contact.number, false, { isGroup: false }],
    ]);
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}/typing`, { typing: "yes" }), 400, "ERR_VALIDATION");
    // a colleague who may not answer it, a closed ticket, another company: refused like an answer
    const colleague = await buildUser(t.app, w.companyId);
    await addUserQueue(t.app, w.companyId, colleague.id, w.queue.id);
    expectError(
      await call(await login(t.app, colleague), "POST", `/messages/${w.ticket.id}/typing`, { typing: true }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    const other = await world();
    expectError(await call(other.admin, "POST", `/messages/${w.ticket.id}/typing`, { typing: true }), 404, "ERR_NO_TICKET_FOUND");
    await db().update(tickets).set({ status: "closed" }).where(eq(tickets.id, w.ticket.id));
    expectError(await call(w.as.agent, "POST", `/messages/${w.ticket.id}/typing`, { typing: true }), 409, "ERR_TICKET_NOT_OPEN");
    expect(typed).toHaveLength(2);
    // a session that is down: still answered, nothing shown
    await db().update(tickets).set({ status: "open" }).where(eq(tickets.id, w.ticket.id));
    useDriver({
      provider: "fake",
      typing: async () => {
        throw Object.assign(new Error("down"), { code: "ERR_WAPP_NOT_INITIALIZED" });
      },
    } as unknown as ChannelDriver);
    expect((await call(w.as.agent, "POST", `/messages/${w.ticket.id}/typing`, { typing: true })).statusCode).toBe(204);
  });
});
