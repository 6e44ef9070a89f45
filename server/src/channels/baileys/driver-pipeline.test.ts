import { Ack } from "@charla/contracts";
import { proto, type WAMessage } from "baileys";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages, settings } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { FakeSocket } from "../../test/baileys-socket.js";
import { buildCompany, buildContact, buildMessage, buildTicket, buildWhatsapp } from "../../test/factories.js";
import { uid } from "../../test/http.js";
import type { ChannelEvents } from "../driver.js";
import { BaileysDriver, type BaileysDriverOptions } from "./driver.js";

/*
 * The WhatsApp Web driver on a fake socket, speaking to the real sessions layer and pipeline: what
 * Baileys reports ends up on the rows.
 */

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const Status = proto.WebMessageInfo.Status;
const db = () => t.app.charla.db;
const rowOf = async (whatsappId: number, channelId: string) =>
  (
    await db()
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId)))
  )[0];

async function connected(options: Partial<BaileysDriverOptions> = {}, company?: { id: number }) {
  const c = company ?? (await buildCompany(t.app));
  const wa = await buildWhatsapp(t.app, c.id, { provider: "beta" });
  const ref = { companyId: c.id, whatsappId: wa.id };
  // the events the sessions layer gives a driver it starts
  const events = (t.app.charla.sessions as unknown as { eventsFor(c: number, w: number): ChannelEvents }).eventsFor(c.id, wa.id);
  let sock: FakeSocket | null = null;
  const driver = new BaileysDriver(
    { ...ref, events },
    {
      db: db(),
      log: pino({ level: "silent" }),
      makeSocket: (config) => {
        sock = new FakeSocket(config);
        return sock;
      },
      ...options,
    },
  );
  await driver.connect();
  const socket = sock as unknown as FakeSocket;
  socket.emit("connection.update", { connection: "open" });
  await driver.whenIdle();
  return { c, wa, ref, driver, sock: socket };
}

const number = () => `5215${Math.floor(Math.random() * 1e9)}`.padEnd(13, "7");
const image = (id: string, remoteJid: string, extra: Partial<WAMessage["key"]> = {}): WAMessage => ({
  key: { remoteJid, fromMe: false, id, ...extra },
  message: { imageMessage: { mimetype: "image/jpeg", caption: "foto" } },
  messageTimestamp: Math.floor(Date.now() / 1000),
  pushName: "Lucía",
});

describe("#baileys driver through the pipeline", () => {
  it("should mark a send WhatsApp refused (a restricted account) failed with its reason, and count group reads as delivered", async () => {
    const w = await connected();
    const contact = await buildContact(t.app, w.c.id);
    const ticket = await buildTicket(t.app, w.c.id, { contactId: contact.id, whatsappId: w.wa.id });
    const refused = await buildMessage(t.app, ticket, { fromMe: true, ack: Ack.server });
    const toGroup = await buildMessage(t.app, ticket, { fromMe: true, ack: Ack.server });
    const jid = `${contact.number}@s.whatsapp.net`;
    const group = "120363012345678901@g.us";
    w.sock.emit("messages.update", [
      { key: { remoteJid: jid, fromMe: true, id: refused.channelId }, update: { status: Status.ERROR } },
    ]);
    const key = { remoteJid: group, fromMe: true, id: toGroup.channelId };
    w.sock.emit("message-receipt.update", [
      { key, receipt: { userJid: "987654321098765@lid", readTimestamp: 1_700_000_100 } },
      { key, receipt: { userJid: "987654321098766@lid", playedTimestamp: 1_700_000_200 } },
    ]);
    await w.driver.whenIdle();
    expect(await rowOf(w.wa.id, refused.channelId as string)).toMatchObject({ ack: -1, ackError: "ERR_SENDING_WAPP_MSG" });
    // one member's blue ticks are not the group's
    expect(await rowOf(w.wa.id, toGroup.channelId as string)).toMatchObject({ ack: Ack.delivered, ackError: null });
    await w.driver.disconnect();
  });

  it("should apply the ack of a phone-sent message whose download stalls once the message is stored", async () => {
    const w = await connected({ downloadMedia: () => new Promise<Buffer>(() => undefined), downloadTimeoutMs: 300 });
    const jid = `${number()}@s.whatsapp.net`;
    const id = `PHONE-${uid()}`;
    w.sock.emit("messages.upsert", { type: "notify", messages: [image(id, jid, { fromMe: true })] });
    // WhatsApp's "delivered" comes while the bytes are still awaited, before there is a row
    w.sock.emit("messages.update", [{ key: { remoteJid: jid, fromMe: true, id }, update: { status: Status.DELIVERY_ACK } }]);
    await w.driver.whenIdle();
    // stored without media, and delivered at once: not left to the sessions layer's later tries
    expect(await rowOf(w.wa.id, id)).toMatchObject({ body: "foto", mediaType: "image", mediaPath: null, ack: Ack.delivered });
    await w.driver.disconnect();
  });

  it("should fetch no media for a group the company ignores, nor for a message it has stored", async () => {
    const download = vi.fn(async (_msg: WAMessage) => Buffer.from([0xff, 0xd8, 0xff, 1]));
    const w = await connected({ downloadMedia: download });
    const contact = await buildContact(t.app, w.c.id);
    const ticket = await buildTicket(t.app, w.c.id, { contactId: contact.id, whatsappId: w.wa.id });
    const stored = await buildMessage(t.app, ticket, { body: "ya guardada" });
    const group = "120363012345678901@g.us";
    const author = { participant: `${number()}@s.whatsapp.net` };
    const fresh = `NEW-${uid()}`;
    w.sock.emit("messages.upsert", {
      type: "notify",
      messages: [
        // new companies ignore groups (CheckMsgIsGroup enabled)
        image(`G-${uid()}`, group, author),
        image(stored.channelId as string, `${contact.number}@s.whatsapp.net`),
        image(fresh, `${contact.number}@s.whatsapp.net`),
      ],
    });
    await w.driver.whenIdle();
    expect(download.mock.calls.map(([m]) => m.key.id)).toEqual([fresh]);
    expect(await rowOf(w.wa.id, stored.channelId as string)).toMatchObject({ body: "ya guardada", mediaPath: null });
    expect((await rowOf(w.wa.id, fresh)).mediaPath).toMatch(/^media\/.+\.jpg$/);

    // a company that keeps groups gets their media
    const keeping = await buildCompany(t.app);
    await db()
      .update(settings)
      .set({ value: "disabled" })
      .where(and(eq(settings.companyId, keeping.id), eq(settings.key, "CheckMsgIsGroup")));
    const k = await connected({ downloadMedia: download }, keeping);
    const inGroup = `G-${uid()}`;
    k.sock.emit("messages.upsert", { type: "notify", messages: [image(inGroup, group, author)] });
    await k.driver.whenIdle();
    expect(download.mock.calls.map(([m]) => m.key.id)).toEqual([fresh, inGroup]);
    expect(await rowOf(k.wa.id, inGroup)).toMatchObject({ participant: author.participant.split("@")[0], mediaType: "image" });
    await Promise.all([w.driver.disconnect(), k.driver.disconnect()]);
  });
});
