import { type AppMessageEvent, Events } from "@charla/contracts";
import { and, asc, eq, isNull } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChannelDriver, ChannelEvents, InboundMessage, ReadReceipt } from "../channels/driver.js";
import { Sessions } from "../channels/sessions.js";
import { channelInbox } from "./channel-inbox.js";
import type { SimulatorDriver } from "../channels/simulator/driver.js";
import { scoped } from "../db/scoped.js";
import { contacts, messages, settings, ticketTags, tickets, ticketTracking } from "../db/schema/index.js";
import { presentMessages } from "../modules/messages/presenter.js";
import { markTicketRead } from "../modules/messages/read.js";
import type { RequestCtx } from "../context.js";
import { presentTickets } from "../modules/tickets/presenter.js";
import { ticketAudience } from "../policies/tickets.js";
import { type TestApp, getTestApp } from "../test/app.js";
import {
  addUserQueue,
  buildCompany,
  buildContact,
  buildQueue,
  buildTag,
  buildTicket,
  buildUser,
  buildWhatsapp,
  setUserFlag,
} from "../test/factories.js";
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

  it("keeps each received message's channel address, on both write paths, and hands it back with its read receipt", async () => {
    const { c, source } = await setup();
    const n = number();
    const key = (id: string) => JSON.stringify({ remoteJid: `${id}@lid` });
    // a new contact: the one-statement writer
    await handleInbound(t.app.charla, source, msg({ number: n, channelId: "K-1", channelKey: key("1") }));
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, n));
    const [ticket] = await ticketsOf(contact.id);
    await db().update(tickets).set({ status: "closed" }).where(eq(tickets.id, ticket.id));
    await db().update(ticketTracking).set({ finishedAt: new Date() }).where(eq(ticketTracking.ticketId, ticket.id));
    // a closed ticket reopened: the transactional path
    await handleInbound(t.app.charla, source, msg({ number: n, channelId: "K-2", channelKey: key("2") }));
    await handleInbound(t.app.charla, source, msg({ number: n, channelId: "K-3" }));
    const stored = await db().select().from(messages).where(eq(messages.ticketId, ticket.id)).orderBy(asc(messages.id));
    expect(stored.map((m) => [m.channelId, m.channelKey])).toEqual([
      ["K-1", key("1")],
      ["K-2", key("2")],
      ["K-3", null],
    ]);

    const receipts: ReadReceipt[][] = [];
    const sessions = t.app.charla.sessions;
    const original = sessions.driverFor.bind(sessions);
    sessions.driverFor = async () =>
      ({ markRead: async (_n: string, r: ReadReceipt[]) => void receipts.push(r) }) as unknown as ChannelDriver;
    try {
      const [reopened] = await ticketsOf(contact.id);
      const ctx = { ...t.app.charla, companyId: c.id, log: t.app.log } as unknown as RequestCtx;
      await markTicketRead(ctx, reopened);
      await expect.poll(() => receipts.length).toBe(1);
      expect(receipts[0]).toEqual(
        expect.arrayContaining([
          { channelId: "K-1", key: key("1") },
          { channelId: "K-2", key: key("2") },
          { channelId: "K-3", key: null },
        ]),
      );
    } finally {
      sessions.driverFor = original;
    }
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

describe("inbound pipeline with many messages at once", () => {
  it("stores each contact's messages once and in order, with exact counters and each event telling the ticket as stored", async () => {
    const { c, source } = await setup();
    const queue = await buildQueue(t.app, c.id);
    const agent = await buildUser(t.app, c.id, { profile: "user" });
    await addUserQueue(t.app, c.id, agent.id, queue.id);
    const tag = await buildTag(t.app, c.id);
    // known contacts with live tickets: assigned with a tag, pending in the queue, pending without a queue
    const known = await Promise.all([0, 1, 2].map(() => buildContact(t.app, c.id)));
    const live = [
      await buildTicket(t.app, c.id, {
        contactId: known[0].id,
        whatsappId: source.whatsappId,
        status: "open",
        userId: agent.id,
        queueId: queue.id,
        unreadMessages: 3,
      }),
      await buildTicket(t.app, c.id, { contactId: known[1].id, whatsappId: source.whatsappId, queueId: queue.id }),
      await buildTicket(t.app, c.id, { contactId: known[2].id, whatsappId: source.whatsappId }),
    ];
    await db().insert(ticketTags).values({ companyId: c.id, ticketId: live[0].id, tagId: tag.id });
    const fresh = [number(), number(), number()];
    const sends: InboundMessage[] = [];
    for (let round = 0; round < 3; round++) {
      for (const k of known) sends.push(msg({ number: k.number, body: `de ${k.number} nº ${round}` }));
      for (const n of fresh) sends.push(msg({ number: n, name: `Nuevo ${n}`, body: `de ${n} nº ${round}` }));
    }
    const replay = sends[4];
    const before = sent.length;
    const results = await Promise.all([...sends, replay].map((m) => handleInbound(t.app.charla, source, m)));
    expect(results.filter((r) => r.stored)).toHaveLength(sends.length);
    expect(results.filter((r) => !r.stored)).toEqual([{ stored: false, reason: "duplicate" }]);

    const q = scoped(db(), c.id);
    for (const [i, k] of known.entries()) {
      const [ticket] = await ticketsOf(k.id);
      expect(ticket).toMatchObject({
        id: live[i].id,
        unreadMessages: live[i].unreadMessages + 3,
        lastMessage: `de ${k.number} nº 2`,
      });
      const rows = await db().select().from(messages).where(eq(messages.ticketId, ticket.id)).orderBy(asc(messages.id));
      expect(rows.map((r) => r.body)).toEqual([0, 1, 2].map((round) => `de ${k.number} nº ${round}`));
    }
    for (const n of fresh) {
      const found = await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, c.id), eq(contacts.number, n)));
      expect(found).toHaveLength(1);
      expect(found[0].name).toBe(`Nuevo ${n}`);
      const list = await ticketsOf(found[0].id);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ status: "pending", unreadMessages: 3, lastMessage: `de ${n} nº 2` });
      expect(await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, list[0].id))).toHaveLength(1);
    }

    // one appMessage a stored message, after its ticket update, to the ticket's audience, with the views the API gives
    const events = sent.slice(before).filter((e) => e.cid === c.id);
    const created = events
      .filter((e) => e.event === Events.appMessage(c.id))
      .map((e) => e as typeof e & { payload: AppMessageEvent });
    expect(created).toHaveLength(sends.length);
    expect(events.filter((e) => e.event === Events.ticket(c.id))).toHaveLength(sends.length);
    const last = created.filter((e) => e.payload.ticket.id === live[0].id).at(-1);
    const [row0] = await db().select().from(tickets).where(eq(tickets.id, live[0].id));
    expect(last?.payload.ticket).toEqual((await presentTickets(q, [row0]))[0]);
    expect(last?.payload.ticket.tags).toEqual([{ id: tag.id, name: tag.name, color: tag.color }]);
    const [stored] = await db()
      .select()
      .from(messages)
      .where(eq(messages.id, last?.payload.message.id ?? 0));
    expect(last?.payload.message).toEqual((await presentMessages(q, [stored]))[0]);
    for (const e of created) {
      const [row] = await db().select().from(tickets).where(eq(tickets.id, e.payload.ticket.id));
      expect([...e.uids].sort()).toEqual([...(await ticketAudience(q, row))].sort());
    }
    expect(created.find((e) => e.payload.ticket.id === live[0].id)?.uids).toContain(agent.id);
    expect(created.find((e) => e.payload.ticket.id === live[1].id)?.uids).toContain(agent.id);
    expect(created.find((e) => e.payload.ticket.id === live[2].id)?.uids).not.toContain(agent.id);
  });

  it("links a reply to the message it quotes and tells the quote in the event", async () => {
    const { c, source } = await setup();
    const n = number();
    const first = msg({ number: n, body: "¿Tienen stock?" });
    await handleInbound(t.app.charla, source, first);
    const before = sent.length;
    const reply = msg({ number: n, body: "Respondo esto", quotedChannelId: first.channelId });
    await handleInbound(t.app.charla, source, reply);
    const [quoted] = await db().select().from(messages).where(eq(messages.channelId, first.channelId));
    const event = sent.slice(before).find((e) => e.cid === c.id && e.event === Events.appMessage(c.id));
    expect(event).toBeDefined();
    expect((event?.payload as AppMessageEvent | undefined)?.message.quotedMsg).toEqual({
      id: quoted.id,
      body: "¿Tienen stock?",
      fromMe: false,
      mediaType: "chat",
    });
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "reopens the ticket an agent closes while the message is being written, as if the message came just after",
    async () => {
      const { c, source } = await setup();
      const queue = await buildQueue(t.app, c.id);
      const contact = await buildContact(t.app, c.id);
      const ticket = await buildTicket(t.app, c.id, {
        contactId: contact.id,
        whatsappId: source.whatsappId,
        status: "open",
        userId: c.admin.id,
        queueId: queue.id,
      });
      const agentSide = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await agentSide.connect();
      try {
        // the agent's close holds the ticket's row until it commits
        await agentSide.query("begin");
        await agentSide.query("update tickets set status = 'closed', unread_messages = 0 where id = $1", [ticket.id]);
        await agentSide.query("update ticket_tracking set finished_at = now() where ticket_id = $1", [ticket.id]);
        const writing = handleInbound(t.app.charla, source, msg({ number: contact.number, body: "Una cosa más" }));
        await new Promise((r) => setTimeout(r, 300));
        await agentSide.query("commit");
        const res = await writing;
        expect(res).toMatchObject({ stored: true, ticketId: ticket.id });
      } finally {
        await agentSide.end();
      }
      const [after] = await ticketsOf(contact.id);
      expect(after).toMatchObject({ id: ticket.id, status: "pending", userId: null, queueId: null, unreadMessages: 1 });
      expect(after.lastMessage).toBe("Una cosa más");
      expect(await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticket.id))).toHaveLength(2);
      const event = sent.filter((e) => e.cid === c.id && e.event === Events.appMessage(c.id)).at(-1);
      expect((event?.payload as AppMessageEvent | undefined)?.ticket).toMatchObject({
        id: ticket.id,
        status: "pending",
        userId: null,
      });
    },
  );
});

describe("simulator driver", () => {
  it("receives a customer message through the pipeline and acknowledges sent messages as delivered, then read", async () => {
    const { source } = await setup();
    const sessions = new Sessions(t.app.charla, channelInbox(t.app.charla));
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
      const ackOf = async () => (await db().select().from(messages).where(eq(messages.channelId, out.channelId)))[0].ack;
      await expect.poll(ackOf).toBe(3);
      await driver.readReceipt([out.channelId]);
      const [readRow] = await db().select().from(messages).where(eq(messages.channelId, out.channelId));
      expect(readRow.ack).toBe(4);
      expect(await driver.checkNumber("123")).toBeNull();
      expect((await driver.contactsBook()).length).toBeGreaterThan(0);
    } finally {
      await sessions.stopAll();
    }
  });

  it("applies an ack that overtook its message once the row is there, and only once", async () => {
    const { source } = await setup();
    const sessions = new Sessions(t.app.charla, channelInbox(t.app.charla));
    const events = (sessions as unknown as { eventsFor(c: number, w: number): ChannelEvents }).eventsFor(
      source.companyId,
      source.whatsappId,
    );
    const channelId = `early-${uid()}`;
    const n = number();
    await handleInbound(t.app.charla, source, msg({ number: n }));
    const [contact] = await db().select().from(contacts).where(eq(contacts.number, n));
    const [ticket] = await ticketsOf(contact.id);
    // the phone's "delivered" arrives before the send's row is committed
    await events.ack(channelId, 3);
    await db().insert(messages).values({
      companyId: source.companyId,
      ticketId: ticket.id,
      whatsappId: source.whatsappId,
      channelId,
      body: "hola",
      fromMe: true,
      ack: 1,
    });
    const ackOf = async () => (await db().select().from(messages).where(eq(messages.channelId, channelId)))[0].ack;
    await expect.poll(ackOf).toBe(3);
    // what happens after (here a failure) is not undone by a later try of the same ack
    await db().update(messages).set({ ack: -1 }).where(eq(messages.channelId, channelId));
    await new Promise((r) => setTimeout(r, 5_000));
    expect(await ackOf()).toBe(-1);
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

  it("remembers the pictures asked per app: another one on the same database (another process) asks once too", async () => {
    const { source } = await setup();
    // a second app in this process, as the next test file's is when files share a worker: it must
    // not take the first one's memory for its own
    const other = await getTestApp({}, t.database);
    const asked: string[] = [];
    const driver = {
      profilePicture: async (n: string) => {
        asked.push(n);
        return "https://pps.whatsapp.net/v/otra.jpg";
      },
    } as never;
    const originals = [t, other].map((a) => a.app.charla.sessions.runningDriver.bind(a.app.charla.sessions));
    for (const a of [t, other]) a.app.charla.sessions.runningDriver = () => driver;
    try {
      const n = number();
      await handleInbound(t.app.charla, source, msg({ number: n }));
      await expect.poll(() => asked).toEqual([n]);
      await handleInbound(other.app.charla, source, msg({ number: n }));
      await expect.poll(() => asked).toEqual([n, n]);
    } finally {
      [t, other].forEach((a, i) => {
        a.app.charla.sessions.runningDriver = originals[i];
      });
      await other.close();
    }
  });
});
