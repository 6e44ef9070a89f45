import { Events } from "@charla/contracts";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboundMessage } from "../channels/driver.js";
import { Sessions } from "../channels/sessions.js";
import type { SimulatorDriver } from "../channels/simulator/driver.js";
import { contacts, messages, settings, tickets, ticketTracking } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildQueue, buildUser, buildWhatsapp, setUserFlag } from "../test/factories.js";
import { uid } from "../test/http.js";
import { handleInbound } from "./inbound.js";

let t: TestApp;
const sent: { cid: number; uids: number[]; event: string; payload: unknown }[] = [];

beforeAll(async () => {
  t = await getTestApp();
  t.app.charla.realtime.toUsers = (cid, uids) => ({ emit: (event, payload) => sent.push({ cid, uids, event, payload }) });
});
afterAll(() => t.close());

async function setup() {
  const c = await buildCompany(t.app);
  const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED" });
  return { c, source: { companyId: c.id, whatsappId: wa.id } };
}
const number = () => `5215${Math.floor(Math.random() * 1e9)}`.padEnd(13, "7");
const msg = (over: Partial<InboundMessage> = {}): InboundMessage => ({
  channelId: `ch-${uid()}`,
  number: number(),
  name: "Cliente Nuevo",
  fromMe: false,
  body: "Hola, necesito ayuda",
  mediaType: "chat",
  ...over,
});
const db = () => t.app.charla.db;
const ticketsOf = (contactId: number) => db().select().from(tickets).where(eq(tickets.contactId, contactId));

describe("inbound pipeline", () => {
  it("creates the contact, a pending ticket with a tracking episode and the message, then broadcasts to staff", async () => {
    const { c, source } = await setup();
    const queue = await buildQueue(t.app, c.id);
    const outsider = await buildUser(t.app, c.id, { profile: "user" });
    await setUserFlag(t.app, outsider.id, { allTicket: "disable" });
    const m = msg();
    const res = await handleInbound(t.app.charla, source, m);
    expect(res).toMatchObject({ stored: true, created: true });
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, m.number));
    expect(contact).toMatchObject({ companyId: c.id, name: "Cliente Nuevo", isGroup: false });
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket).toMatchObject({ status: "pending", unreadMessages: 1, lastMessage: "Hola, necesito ayuda", userId: null });
    expect(await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticket.id))).toHaveLength(1);
    const events = sent.filter((e) => e.cid === c.id);
    expect(events.map((e) => e.event)).toEqual([Events.ticket(c.id), Events.appMessage(c.id)]);
    expect(events[0].uids).toContain(c.admin.id);
    expect(events[0].uids).not.toContain(outsider.id);
    expect(queue.companyId).toBe(c.id);
  });

  it("stores a message with a NUL (any driver) without it, instead of failing on the database", async () => {
    const { source } = await setup();
    const m = msg({ body: "Hola\u0000 mundo", name: "Ana\u0000" });
    const res = await handleInbound(t.app.charla, source, m);
    expect(res).toMatchObject({ stored: true });
    const [row] = await db().select().from(messages).where(eq(messages.channelId, m.channelId));
    expect(row.body).toBe("Hola mundo");
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, m.number));
    expect(contact.name).toBe("Ana");
  });

  it("stores a replayed or concurrent duplicate event once, with no second unread", async () => {
    const { source } = await setup();
    const m = msg();
    const results = await Promise.all([1, 2, 3, 4].map(() => handleInbound(t.app.charla, source, m)));
    expect(results.filter((r) => r.stored)).toHaveLength(1);
    expect((await handleInbound(t.app.charla, source, m)).stored).toBe(false);
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, m.number));
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket.unreadMessages).toBe(1);
    expect(await db().select().from(messages).where(eq(messages.ticketId, ticket.id))).toHaveLength(1);
  });

  it("puts two different first messages arriving together in one contact and one ticket", async () => {
    const { source } = await setup();
    const n = number();
    await Promise.all([
      handleInbound(t.app.charla, source, msg({ number: n })),
      handleInbound(t.app.charla, source, msg({ number: n })),
    ]);
    const found = await db().select().from(contacts).where(eq(contacts.number, n));
    expect(found).toHaveLength(1);
    const list = await ticketsOf(found[0].id);
    expect(list).toHaveLength(1);
    expect(list[0].unreadMessages).toBe(2);
  });

  it("reopens a ticket closed less than 2 h ago as pending without user and queue; an older one gets a new ticket", async () => {
    const { c, source } = await setup();
    const queue = await buildQueue(t.app, c.id);
    const n = number();
    await handleInbound(t.app.charla, source, msg({ number: n }));
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, n));
    const [first] = await ticketsOf(contact.id);
    // closed as the API closes: the ticket and its episode's finishedAt
    const close = async (finishedAt: Date, episodes: "open" | "all" = "open") => {
      await db().update(tickets).set({ status: "closed", userId: c.admin.id, queueId: queue.id }).where(eq(tickets.id, first.id));
      const which = episodes === "open" ? isNull(ticketTracking.finishedAt) : undefined;
      await db()
        .update(ticketTracking)
        .set({ finishedAt })
        .where(and(eq(ticketTracking.ticketId, first.id), which));
    };
    await close(new Date());
    // the company's own phone writing to the contact does not reopen it
    await handleInbound(t.app.charla, source, msg({ number: n, fromMe: true }));
    expect((await ticketsOf(contact.id))[0]).toMatchObject({ id: first.id, status: "closed" });
    await handleInbound(t.app.charla, source, msg({ number: n }));
    const [again] = await ticketsOf(contact.id);
    expect(again).toMatchObject({ id: first.id, status: "pending", userId: null, queueId: null });
    expect(await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, first.id))).toHaveLength(2);

    // closed 3 h ago, though touched since (a tag): its updatedAt is recent, the window is not
    await close(new Date(Date.now() - 3 * 3600_000), "all");
    await db().update(tickets).set({ updatedAt: new Date() }).where(eq(tickets.id, first.id));
    await handleInbound(t.app.charla, source, msg({ number: n }));
    const all = await ticketsOf(contact.id);
    expect(all).toHaveLength(2);
    expect(all.find((x) => x.id !== first.id)?.status).toBe("pending");
  });

  it("ignores group messages while CheckMsgIsGroup is enabled, keeps them with the author's name otherwise", async () => {
    const { c, source } = await setup();
    const group = msg({ isGroup: true, name: "Grupo Ventas", participant: { number: "5215500001111", name: "Pedro" } });
    expect(await handleInbound(t.app.charla, source, group)).toEqual({ stored: false, reason: "group-ignored" });
    await db().update(settings).set({ value: "disabled" }).where(eq(settings.companyId, c.id));
    const res = await handleInbound(t.app.charla, source, group);
    expect(res.stored).toBe(true);
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, group.number));
    expect(contact).toMatchObject({ isGroup: true, name: "Grupo Ventas" });
    const [row] = await db().select().from(messages).where(eq(messages.channelId, group.channelId));
    expect(row).toMatchObject({ participant: "5215500001111", participantName: "Pedro" });
  });

  it("keeps messages sent from the company's phone read, without unread and without renaming the contact", async () => {
    const { source } = await setup();
    const n = number();
    await handleInbound(t.app.charla, source, msg({ number: n, name: "Ana Cliente" }));
    await handleInbound(t.app.charla, source, msg({ number: n, name: "Mi Empresa", fromMe: true, body: "Con gusto" }));
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, n));
    expect(contact.name).toBe("Ana Cliente");
    const [ticket] = await ticketsOf(contact.id);
    expect(ticket).toMatchObject({ unreadMessages: 1, lastMessage: "Con gusto" });
  });

  it("stores media in the company's folder, links replies, and drops what is not a conversation", async () => {
    const { c, source } = await setup();
    const n = number();
    const first = msg({ number: n });
    await handleInbound(t.app.charla, source, first);
    const image = msg({
      number: n,
      body: "",
      mediaType: "image",
      media: { data: Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]), mimetype: "image/jpeg", fileName: "foto.jpg" },
      quotedChannelId: first.channelId,
    });
    await handleInbound(t.app.charla, source, image);
    const [row] = await db().select().from(messages).where(eq(messages.channelId, image.channelId));
    expect(row.mediaPath).toMatch(/^media\/.+\.jpg$/);
    expect(await t.app.charla.storage.read(c.id, row.mediaPath as string)).toEqual(image.media?.data);
    const [quoted] = await db().select().from(messages).where(eq(messages.channelId, first.channelId));
    expect(row.quotedMsgId).toBe(quoted.id);
    expect(await handleInbound(t.app.charla, source, msg({ ignorable: true }))).toEqual({ stored: false, reason: "ignorable" });
  });
});

describe("simulator driver", () => {
  it("receives a customer message through the pipeline and acknowledges sent messages as delivered, then read", async () => {
    const { source } = await setup();
    const sessions = new Sessions(t.app.charla);
    try {
      const driver = (await sessions.driverFor(source.companyId, source.whatsappId)) as SimulatorDriver;
      expect(driver.provider).toBe("simulator");
      const stranger = await buildCompany(t.app);
      expect(await sessions.driverFor(stranger.id, source.whatsappId)).toBeNull();
      expect(await sessions.driverFor(source.companyId, source.whatsappId)).toBe(driver);
      const n = number();
      await driver.receive({ number: n, name: "Simulada", body: "¿Tienen envío?", mediaType: "chat" });
      const [contact] = await db().select().from(contacts).where(eq(contacts.number, n));
      const [ticket] = await ticketsOf(contact.id);
      expect(ticket.lastMessage).toBe("¿Tienen envío?");
      const out = await driver.sendText(n, "Sí, a todo el país");
      await db().insert(messages).values({
        companyId: source.companyId,
        ticketId: ticket.id,
        whatsappId: source.whatsappId,
        channelId: out.channelId,
        body: "Sí, a todo el país",
        fromMe: true,
        ack: 1,
      });
      // the phone confirms delivery by itself (3); it reads only when its customer does (4)
      await new Promise((r) => setTimeout(r, 800));
      const [sentRow] = await db().select().from(messages).where(eq(messages.channelId, out.channelId));
      expect(sentRow.ack).toBe(3);
      await driver.readReceipt([out.channelId]);
      const [readRow] = await db().select().from(messages).where(eq(messages.channelId, out.channelId));
      expect(readRow.ack).toBe(4);
      expect(await driver.checkNumber("123")).toBeNull();
      expect((await driver.contactsBook()).length).toBeGreaterThan(0);
    } finally {
      await sessions.stopAll();
    }
  });

  it("refreshes the contact's profile picture at most once a day", async () => {
    const { source } = await setup();
    const asked: string[] = [];
    const original = t.app.charla.sessions.runningDriver.bind(t.app.charla.sessions);
    t.app.charla.sessions.runningDriver = () =>
      ({
        profilePicture: async (n: string) => {
          asked.push(n);
          return "https://pps.whatsapp.net/v/foto.jpg";
        },
      }) as never;
    try {
      const n = number();
      await handleInbound(t.app.charla, source, msg({ number: n }));
      await handleInbound(t.app.charla, source, msg({ number: n }));
      await expect
        .poll(async () => (await db().select().from(contacts).where(eq(contacts.number, n)))[0].profilePicUrl)
        .toBe("https://pps.whatsapp.net/v/foto.jpg");
      expect(asked).toEqual([n]);
    } finally {
      t.app.charla.sessions.runningDriver = original;
    }
  });
});
