import { readFileSync } from "node:fs";
import { type AnyMessageContent, generateWAMessageContent, proto, type WAMessage } from "baileys";
import { vcardBody } from "@charla/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database, Db } from "../../db/client.js";
import { whatsappAuth, whatsappLids } from "../../db/schema/index.js";
import { openTestDatabase } from "../../test/app.js";
import { FakeSocket, OWN } from "../../test/baileys-socket.js";
import { buildCompany, buildWhatsapp } from "../../test/factories.js";
import type { ChannelEvents, ConnectionStatus, InboundMessage } from "../driver.js";
import { useDbAuthState } from "./auth-state.js";
import { locationBody } from "./map-message.js";
import {
  BaileysDriver,
  type BaileysDriverOptions,
  CALLS_DISABLED_TEXT,
  decodeContent,
  defaultBackoff,
  encodeKey,
} from "./driver.js";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function buildConnection(db: Db) {
  const app = { charla: { db } } as unknown as FastifyInstance;
  const company = await buildCompany(app);
  const wa = await buildWhatsapp(app, company.id, { provider: "beta" });
  return { companyId: company.id, whatsappId: wa.id };
}

const CONTACT = "5215511112222";
const boom = (statusCode: number) => Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } });

type Recorded = {
  statuses: { status: ConnectionStatus; extra?: { qrcode?: string; retries?: number; number?: string } }[];
  messages: InboundMessage[];
  acks: ([string, number] | [string, number, string])[];
  revoked: string[];
  edited: [string, string][];
  resolved: [string, string][];
  /** Messages, acks and revokes in the order Charla heard of them. */
  timeline: string[];
};

async function setup(options: Partial<BaileysDriverOptions> = {}, asked: Partial<ChannelEvents> = {}) {
  const ref = await buildConnection(database.db);
  const sockets: FakeSocket[] = [];
  const rec: Recorded = { statuses: [], messages: [], acks: [], revoked: [], edited: [], resolved: [], timeline: [] };
  const events: ChannelEvents = {
    message: async (m) => {
      rec.messages.push(m);
      rec.timeline.push(`message ${m.channelId}`);
    },
    ack: async (id, ack, error) => {
      rec.acks.push(error ? [id, ack, error] : [id, ack]);
      rec.timeline.push(`ack ${id} ${ack}`);
    },
    revoked: async (id) => {
      rec.revoked.push(id);
      rec.timeline.push(`revoked ${id}`);
    },
    edited: async (id, body) => void rec.edited.push([id, body]),
    status: async (status, extra) => void rec.statuses.push({ status, extra }),
    addressResolved: async (address, number) => void rec.resolved.push([address, number]),
    ...asked,
  };
  const driver = new BaileysDriver(
    { ...ref, events },
    {
      db: database.db,
      log: pino({ level: "silent" }),
      backoff: () => 5,
      makeSocket: (config) => {
        // never two live sockets: every earlier one is ended and deaf before the next exists
        for (const s of sockets) {
          expect(s.ended).toBe(true);
          expect(s.listeners()).toBe(0);
        }
        const s = new FakeSocket(config);
        sockets.push(s);
        return s;
      },
      ...options,
    },
  );
  const current = () => sockets[sockets.length - 1];
  const open = async () => {
    current().emit("connection.update", { connection: "open" });
    await driver.whenIdle();
  };
  const statuses = () => rec.statuses.map((s) => s.status);
  return { ref, driver, sockets, rec, current, open, statuses };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 2000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await sleep(5);
  }
}

const authRows = (whatsappId: number) => database.db.select().from(whatsappAuth).where(eq(whatsappAuth.whatsappId, whatsappId));

describe("#baileys driver lifecycle", () => {
  it("should build the socket from the stored auth state and show the QR", async () => {
    const t = await setup();
    await t.driver.connect();
    expect(t.sockets).toHaveLength(1);
    const config = t.current().config;
    expect(config.auth.creds.registered).toBe(false);
    expect(config.emitOwnEvents).toBe(false);
    t.current().emit("connection.update", { connection: "connecting" });
    t.current().emit("connection.update", { qr: "2@QR-ONE" });
    t.current().emit("connection.update", { qr: "2@QR-TWO" });
    await t.driver.whenIdle();
    expect(t.rec.statuses).toEqual([
      { status: "OPENING", extra: undefined },
      { status: "qrcode", extra: { qrcode: "2@QR-ONE", retries: 1 } },
      { status: "qrcode", extra: { qrcode: "2@QR-TWO", retries: 2 } },
    ]);
    await t.driver.disconnect();
  });

  it("should save creds on creds.update and restore them on the next start", async () => {
    const t = await setup();
    await t.driver.connect();
    const creds = t.current().config.auth.creds;
    creds.me = { id: `${OWN}:12@s.whatsapp.net` };
    t.current().emit("creds.update", { me: creds.me });
    await t.driver.whenIdle();
    expect((await useDbAuthState(database.db, t.ref)).state.creds.me?.id).toBe(`${OWN}:12@s.whatsapp.net`);
    await t.driver.disconnect();
  });

  it("should report CONNECTED with the phone's number when the connection opens", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    expect(t.rec.statuses.at(-1)).toEqual({ status: "CONNECTED", extra: { number: OWN } });
    await t.driver.disconnect();
  });

  it("should reconnect after the backoff when the connection is lost, never with two sockets alive", async () => {
    const delays: number[] = [];
    const t = await setup({
      backoff: (n) => {
        delays.push(n);
        return 5;
      },
    });
    await t.driver.connect();
    await t.open();
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(408), date: new Date() } });
    expect(t.sockets[0].ended).toBe(true);
    await until(() => t.sockets.length === 2);
    // a second loss before opening waits longer
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(428), date: new Date() } });
    await until(() => t.sockets.length === 3);
    expect(delays).toEqual([0, 1]);
    await t.open();
    // an open connection starts the backoff again
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(515), date: new Date() } });
    await until(() => t.sockets.length === 4);
    expect(delays).toEqual([0, 1, 0]);
    expect(t.sockets.filter((s) => !s.ended)).toHaveLength(1);
    await t.driver.whenIdle();
    expect(t.statuses()).toEqual(["CONNECTED", "OPENING", "CONNECTED", "OPENING"]);
    await t.driver.disconnect();
    expect(t.sockets.every((s) => s.ended)).toBe(true);
  });

  it("should announce the current WhatsApp Web version, and after a 405 fetch it again once before stopping with its reason", async () => {
    const asked: boolean[] = [];
    const versions: [number, number, number][] = [
      [2, 3000, 111],
      [2, 3000, 222],
      [2, 3000, 333],
    ];
    const t = await setup({
      waVersion: async (refresh) => {
        asked.push(refresh);
        return versions[asked.length - 1];
      },
    });
    await t.driver.connect();
    expect(t.current().config.version).toEqual([2, 3000, 111]);
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(405), date: new Date() } });
    await until(() => t.sockets.length === 2);
    // the refused version is not asked for from the cache: a fresh one is fetched
    expect(asked).toEqual([false, true]);
    expect(t.current().config.version).toEqual([2, 3000, 222]);
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(405), date: new Date() } });
    await t.driver.whenIdle();
    await sleep(30);
    // refused again: no reconnect every 30 s behind a spinner, a stop the Connections page explains
    expect(t.sockets).toHaveLength(2);
    expect(t.sockets.every((s) => s.ended)).toBe(true);
    expect(t.rec.statuses.at(-1)).toEqual({ status: "DISCONNECTED", extra: { reason: "VERSION_REJECTED" } });
    // Retry starts over with a fresh count
    await t.driver.connect();
    expect(t.sockets).toHaveLength(3);
    await t.open();
    expect(t.rec.statuses.at(-1)?.status).toBe("CONNECTED");
    await t.driver.disconnect();
  });

  it("should stop at once on a 405 when it has no way to fetch another version", async () => {
    const t = await setup();
    await t.driver.connect();
    expect(t.current().config.version).toBeUndefined();
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(405), date: new Date() } });
    await t.driver.whenIdle();
    expect(t.rec.statuses.at(-1)).toEqual({ status: "DISCONNECTED", extra: { reason: "VERSION_REJECTED" } });
    expect(t.sockets).toHaveLength(1);
  });

  it("should say so when another WhatsApp Web takes the link (440), retry once after a while, and stop when it happens again", async () => {
    const t = await setup({ replacedRetryMs: 40 });
    await t.driver.connect();
    await t.open();
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(440), date: new Date() } });
    await t.driver.whenIdle();
    // not CONNECTED any more while it waits: sends answer ERR_WAPP_NOT_INITIALIZED with a truthful status
    expect(t.rec.statuses.at(-1)).toEqual({ status: "DISCONNECTED", extra: { reason: "REPLACED" } });
    await expect(t.driver.sendText(CONTACT, "hola")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    expect(t.sockets).toHaveLength(1);
    await until(() => t.sockets.length === 2);
    await t.open();
    expect(t.rec.statuses.at(-1)?.status).toBe("CONNECTED");
    // replaced again within the hour: stopped until someone presses Retry
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(440), date: new Date() } });
    await t.driver.whenIdle();
    await sleep(80);
    expect(t.sockets).toHaveLength(2);
    expect(t.rec.statuses.at(-1)).toEqual({ status: "DISCONNECTED", extra: { reason: "REPLACED" } });
  });

  it("should bound reconnects on session errors (500, 411, 419) and show why it stopped", async () => {
    const t = await setup();
    await t.driver.connect();
    const codes = [500, 411, 419, 500, 500];
    for (const [i, code] of codes.entries()) {
      t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(code), date: new Date() } });
      if (i < codes.length - 1) await until(() => t.sockets.length === i + 2);
    }
    await t.driver.whenIdle();
    await sleep(30);
    expect(t.sockets).toHaveLength(codes.length);
    expect(t.rec.statuses.at(-1)).toEqual({ status: "DISCONNECTED", extra: { reason: "RECONNECT_LIMIT" } });
    // network losses are not bounded: they reconnect as long as it takes
    await t.driver.connect();
    for (let i = 0; i < 8; i++) {
      const n = t.sockets.length;
      t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(428), date: new Date() } });
      await until(() => t.sockets.length === n + 1);
    }
    await t.driver.disconnect();
  });

  it("should give Baileys what the references do: ignored status and channel jids, a retry counter and group metadata that outlive the socket", async () => {
    const t = await setup();
    await t.driver.connect();
    const first = t.current().config;
    expect(["status@broadcast", "120363999@newsletter", "123@broadcast"].map((j) => first.shouldIgnoreJid?.(j))).toEqual([
      true,
      true,
      true,
    ]);
    expect([`${CONTACT}@s.whatsapp.net`, "120363012345678901@g.us", "123456@lid"].map((j) => first.shouldIgnoreJid?.(j))).toEqual(
      [false, false, false],
    );
    await first.msgRetryCounterCache?.set("MSG-1", 2);
    await t.open();
    const group = "120363012345678901@g.us";
    const groupMetadata = vi.fn(async (jid: string) => ({ id: jid, subject: "Ventas Norte", participants: [] }));
    Object.assign(t.current(), { groupMetadata });
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        textMessage("G-1", "hola", {
          key: { remoteJid: group, participant: `${CONTACT}@s.whatsapp.net`, fromMe: false, id: "G-1" },
        }),
      ],
    });
    await t.driver.whenIdle();
    expect(t.rec.messages.at(-1)).toMatchObject({ name: "Ventas Norte", isGroup: true });
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(428), date: new Date() } });
    await until(() => t.sockets.length === 2);
    const second = t.current().config;
    // the next socket keeps counting retries, and sends to the group without asking WhatsApp for it again
    expect(await second.msgRetryCounterCache?.get("MSG-1")).toBe(2);
    expect(await second.cachedGroupMetadata?.(group)).toMatchObject({ subject: "Ventas Norte" });
    t.current().emit("groups.update", [{ id: group, subject: "Ventas Sur" }]);
    expect(await second.cachedGroupMetadata?.(group)).toMatchObject({ subject: "Ventas Sur" });
    expect(groupMetadata).toHaveBeenCalledTimes(1);
    await t.driver.disconnect();
  });

  it("should link by a code typed on the phone instead of the QR, asked once the socket waits for a link", async () => {
    const t = await setup();
    await t.driver.connect();
    const requestPairingCode = vi.fn(async (_n: string) => "ABCD1234");
    Object.assign(t.current(), { requestPairingCode });
    await expect(t.driver.pairWithCode("123")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    await t.driver.pairWithCode("+52 1 55 1234 5678");
    // not yet waiting for a link: asked at the first QR, which is not shown
    expect(requestPairingCode).not.toHaveBeenCalled();
    t.current().emit("connection.update", { qr: "2@QR-ONE" });
    await until(() => t.rec.statuses.some((s) => s.status === "PAIRING"));
    expect(requestPairingCode).toHaveBeenCalledWith("5215512345678");
    expect(t.rec.statuses.at(-1)).toEqual({ status: "PAIRING", extra: { qrcode: "ABCD1234" } });
    t.current().emit("connection.update", { qr: "2@QR-TWO" });
    await t.driver.whenIdle();
    expect(requestPairingCode).toHaveBeenCalledTimes(1);
    expect(t.statuses()).not.toContain("qrcode");
    await t.open();
    expect(t.rec.statuses.at(-1)?.status).toBe("CONNECTED");
    // linked: nothing to pair
    await t.driver.pairWithCode("5215512345678");
    expect(requestPairingCode).toHaveBeenCalledTimes(1);
    await t.driver.disconnect();
  });

  it("should grow the default backoff 1 s, 2 s, 4 s … up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(defaultBackoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it("should ignore events of a replaced socket", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const old = t.current();
    old.emit("connection.update", { connection: "close", lastDisconnect: { error: boom(500), date: new Date() } });
    await until(() => t.sockets.length === 2);
    old.emit("messages.upsert", { type: "notify", messages: [textMessage("LATE", "tarde")] });
    old.emit("connection.update", { connection: "open" });
    await t.driver.whenIdle();
    expect(t.rec.messages).toHaveLength(0);
    await expect(t.driver.sendText(CONTACT, "hola")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    await t.driver.disconnect();
  });

  it.each([
    ["loggedOut", 401],
    ["forbidden", 403],
  ])("should forget the creds and stay DISCONNECTED on %s", async (_name, code) => {
    const t = await setup();
    await t.driver.connect();
    const auth = await useDbAuthState(database.db, t.ref);
    await auth.saveCreds();
    await auth.state.keys.set({ session: { x: new Uint8Array([1]) } });
    await t.open();
    expect(await authRows(t.ref.whatsappId)).toHaveLength(2);

    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(code), date: new Date() } });
    await t.driver.whenIdle();
    await sleep(30);
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0].ended).toBe(true);
    expect(await authRows(t.ref.whatsappId)).toHaveLength(0);
    expect(t.statuses().at(-1)).toBe("DISCONNECTED");
  });

  it("should stop with TIMEOUT when nobody scans the QR (Baileys' timedOut while pairing)", async () => {
    const t = await setup();
    await t.driver.connect();
    t.current().emit("connection.update", { qr: "2@QR" });
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(408), date: new Date() } });
    await t.driver.whenIdle();
    await sleep(30);
    expect(t.sockets).toHaveLength(1);
    expect(t.statuses()).toEqual(["qrcode", "TIMEOUT"]);
  });

  it("should stop with TIMEOUT after too many QR refreshes", async () => {
    const t = await setup({ maxQrRefreshes: 3 });
    await t.driver.connect();
    for (const n of [1, 2, 3, 4]) t.current().emit("connection.update", { qr: `2@QR-${n}` });
    await t.driver.whenIdle();
    expect(t.current().ended).toBe(true);
    expect(t.statuses()).toEqual(["qrcode", "qrcode", "qrcode", "TIMEOUT"]);
  });

  it("should keep pairing across a restart after the scan (restartRequired)", async () => {
    const t = await setup();
    await t.driver.connect();
    t.current().emit("connection.update", { qr: "2@QR" });
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(515), date: new Date() } });
    await until(() => t.sockets.length === 2);
    await t.open();
    expect(t.statuses()).toEqual(["qrcode", "OPENING", "CONNECTED"]);
    await t.driver.disconnect();
  });

  it("should not reconnect after disconnect(), even with a reconnect pending", async () => {
    const t = await setup({ backoff: () => 20 });
    await t.driver.connect();
    await t.open();
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(408), date: new Date() } });
    await t.driver.disconnect();
    await sleep(60);
    expect(t.sockets).toHaveLength(1);
    expect(t.sockets[0].ended).toBe(true);
    expect(t.statuses().at(-1)).toBe("DISCONNECTED");
    await expect(t.driver.sendText(CONTACT, "hola")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
  });

  it("should log the phone out, forget the creds and stop on logout()", async () => {
    const t = await setup();
    await t.driver.connect();
    await (await useDbAuthState(database.db, t.ref)).saveCreds();
    await t.open();
    await t.driver.logout();
    expect(t.sockets[0].logout).toHaveBeenCalledOnce();
    expect(t.sockets[0].ended).toBe(true);
    expect(await authRows(t.ref.whatsappId)).toHaveLength(0);
    expect(t.statuses().at(-1)).toBe("DISCONNECTED");
    await sleep(30);
    expect(t.sockets).toHaveLength(1);
  });

  it("should forget the link and pair again on requestNewQr()", async () => {
    const t = await setup();
    await t.driver.connect();
    await (await useDbAuthState(database.db, t.ref)).saveCreds();
    t.current().emit("connection.update", { connection: "close", lastDisconnect: { error: boom(408), date: new Date() } });
    await t.driver.requestNewQr();
    expect(await authRows(t.ref.whatsappId)).toHaveLength(0);
    expect(t.sockets.length).toBeGreaterThanOrEqual(2);
    expect(t.sockets.filter((s) => !s.ended)).toHaveLength(1);
    expect(t.current().config.auth.creds.registered).toBe(false);
    t.current().emit("connection.update", { qr: "2@NEW" });
    await t.driver.whenIdle();
    expect(t.rec.statuses.at(-1)).toEqual({ status: "qrcode", extra: { qrcode: "2@NEW", retries: 1 } });
    await t.driver.disconnect();
  });
});

function textMessage(id: string, text: string, extra: Partial<WAMessage> = {}): WAMessage {
  return {
    key: { remoteJid: `${CONTACT}@s.whatsapp.net`, fromMe: false, id },
    message: { conversation: text },
    messageTimestamp: 1_700_000_000,
    pushName: "Lucía",
    ...extra,
  };
}

describe("#baileys driver events", () => {
  it("should hand over notify and append messages, in order, with media downloaded", async () => {
    const downloadMedia = vi.fn(async () => Buffer.from("jpeg"));
    const t = await setup({ downloadMedia });
    await t.driver.connect();
    await t.open();
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [textMessage("IN-1", "hola"), textMessage("IN-2", "", { message: { imageMessage: { mimetype: "image/jpeg" } } })],
    });
    t.current().emit("messages.upsert", { type: "append", messages: [textMessage("IN-3", "offline")] });
    await t.driver.whenIdle();
    expect(t.rec.messages.map((m) => m.channelId)).toEqual(["IN-1", "IN-2", "IN-3"]);
    expect(t.rec.messages[0]).toMatchObject({ number: CONTACT, name: "Lucía", body: "hola", fromMe: false });
    expect(t.rec.messages[1].media).toMatchObject({ data: Buffer.from("jpeg"), mimetype: "image/jpeg" });
    expect(downloadMedia).toHaveBeenCalledWith(
      expect.objectContaining({ key: expect.objectContaining({ id: "IN-2" }) }),
      t.current(),
    );
    await t.driver.disconnect();
  });

  it("should remember LID mappings in whatsapp_lids and use them for later messages", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        textMessage("LID-1", "hola", {
          key: { remoteJid: "123456789012345@lid", remoteJidAlt: `${CONTACT}@s.whatsapp.net`, fromMe: false, id: "LID-1" },
        }),
      ],
    });
    t.current().emit("lid-mapping.update", { lid: "555666777888999@lid", pn: "5215533334444@s.whatsapp.net" });
    await t.driver.whenIdle();
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [textMessage("LID-2", "otra", { key: { remoteJid: "555666777888999@lid", fromMe: false, id: "LID-2" } })],
    });
    await t.driver.whenIdle();
    expect(t.rec.messages.map((m) => m.number)).toEqual([CONTACT, "5215533334444"]);
    const rows = await database.db.select().from(whatsappLids).where(eq(whatsappLids.whatsappId, t.ref.whatsappId));
    expect(rows.map((r) => [r.lid, r.number]).sort()).toEqual([
      ["123456789012345", CONTACT],
      ["555666777888999", "5215533334444"],
    ]);
    await t.driver.disconnect();
  });

  it("should send read receipts to the chat and author a message came from (LID chats, groups)", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const lidChat = "123456789012345@lid";
    const group = "120363012345678901@g.us";
    const author = "987654321098765@lid";
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        textMessage("IN-LID", "hola", {
          key: { remoteJid: lidChat, remoteJidAlt: `${CONTACT}@s.whatsapp.net`, fromMe: false, id: "IN-LID" },
        }),
        textMessage("IN-GROUP", "hola grupo", {
          key: {
            remoteJid: group,
            participant: author,
            participantAlt: "5215544445555@s.whatsapp.net",
            fromMe: false,
            id: "IN-GROUP",
          },
        }),
        textMessage("IN-PN", "hola"),
      ],
    });
    await t.driver.whenIdle();
    // three chats: each is handed over on its own, in no set order among them
    const [lid, inGroup, plain] = ["IN-LID", "IN-GROUP", "IN-PN"].map(
      (id) => t.rec.messages.find((m) => m.channelId === id) as InboundMessage,
    );
    // the contact is found by its number, but the message keeps the address it came from
    expect(lid).toMatchObject({ number: CONTACT, channelKey: JSON.stringify({ remoteJid: lidChat }) });
    expect(inGroup.channelKey).toBe(JSON.stringify({ remoteJid: group, participant: author }));
    expect(plain.channelKey).toBe(JSON.stringify({ remoteJid: `${CONTACT}@s.whatsapp.net` }));

    await t.driver.markRead(CONTACT, [
      { channelId: "IN-LID", key: lid.channelKey },
      { channelId: "IN-PN", key: plain.channelKey },
    ]);
    expect(t.current().readMessages).toHaveBeenLastCalledWith([
      { remoteJid: lidChat, id: "IN-LID", fromMe: false },
      { remoteJid: `${CONTACT}@s.whatsapp.net`, id: "IN-PN", fromMe: false },
    ]);
    await t.driver.markRead("120363012345678901", [{ channelId: "IN-GROUP", key: inGroup.channelKey }], { isGroup: true });
    // WhatsApp ignores a group receipt that does not name the author
    expect(t.current().readMessages).toHaveBeenLastCalledWith([
      { remoteJid: group, id: "IN-GROUP", fromMe: false, participant: author },
    ]);
    // a key that is not one falls back to the contact's jid
    await t.driver.markRead(CONTACT, [{ channelId: "OLD", key: "{oops" }]);
    expect(t.current().readMessages).toHaveBeenLastCalledWith([
      { remoteJid: `${CONTACT}@s.whatsapp.net`, id: "OLD", fromMe: false },
    ]);
    await t.driver.disconnect();
  });

  it("should keep an unknown LID as the contact's address, reply to it, and tell once its number is learnt", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const lid = "444555666777888@lid";
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [textMessage("U-1", "hola", { key: { remoteJid: lid, fromMe: false, id: "U-1" } })],
    });
    await t.driver.whenIdle();
    expect(t.rec.messages.at(-1)?.number).toBe(lid);
    // the reply goes to the LID, not to a phone number made of its digits
    await t.driver.sendText(lid, "¿en qué le ayudo?");
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(lid, { text: "¿en qué le ayudo?" }, {});
    t.current().emit("lid-mapping.update", { lid, pn: `${CONTACT}@s.whatsapp.net` });
    await t.driver.whenIdle();
    expect(t.rec.resolved).toEqual([[lid, CONTACT]]);
    // the same mapping again is no news
    t.current().emit("lid-mapping.update", { lid, pn: `${CONTACT}@s.whatsapp.net` });
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [textMessage("U-2", "otra", { key: { remoteJid: lid, fromMe: false, id: "U-2" } })],
    });
    await t.driver.whenIdle();
    expect(t.rec.resolved).toHaveLength(1);
    expect(t.rec.messages.at(-1)?.number).toBe(CONTACT);
    await t.driver.disconnect();
  });

  it("should map status updates and receipts of sent messages to acks", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const Status = proto.WebMessageInfo.Status;
    const key = { remoteJid: `${CONTACT}@s.whatsapp.net`, fromMe: true, id: "OUT-9" };
    t.current().emit("messages.update", [
      { key, update: { status: Status.SERVER_ACK } },
      { key, update: { status: Status.DELIVERY_ACK } },
      { key, update: { status: Status.READ } },
      { key, update: { status: Status.PLAYED } },
      { key, update: { status: Status.ERROR } },
      // a receipt of a message we received is not an ack of ours
      { key: { ...key, fromMe: false, id: "IN-9" }, update: { status: Status.READ } },
    ]);
    t.current().emit("message-receipt.update", [
      { key: { ...key, id: "OUT-10" }, receipt: { userJid: `${CONTACT}@s.whatsapp.net`, readTimestamp: 1_700_000_100 } },
    ]);
    await t.driver.whenIdle();
    // WhatsApp's own numbers (docs/acks.md): server 2, delivered 3, read 4, played 5, an error -1 with its reason
    expect(t.rec.acks).toEqual([
      ["OUT-9", 2],
      ["OUT-9", 3],
      ["OUT-9", 4],
      ["OUT-9", 5],
      ["OUT-9", -1, "ERR_SENDING_WAPP_MSG"],
      ["OUT-10", 4],
    ]);
    await t.driver.disconnect();
  });

  it("should pass on edits and deletions from messages.update and from protocol messages", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const key = { remoteJid: `${CONTACT}@s.whatsapp.net`, fromMe: false, id: "IN-5" };
    t.current().emit("messages.update", [
      { key, update: { message: { editedMessage: { message: { conversation: "corregido" } } } } },
      { key, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } },
    ]);
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        textMessage("P-1", "", {
          message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { ...key, id: "IN-6" } } },
        }),
      ],
    });
    await t.driver.whenIdle();
    expect(t.rec.edited).toEqual([["IN-5", "corregido"]]);
    expect(t.rec.revoked.sort()).toEqual(["IN-5", "IN-6"]);
    await t.driver.disconnect();
  });

  it("should keep other chats and acks flowing while a download stalls, and deliver its message without media after the limit", async () => {
    const LIMIT = 1_000;
    const downloadMedia = vi.fn((msg: WAMessage) =>
      msg.key.id === "SLOW" ? new Promise<Buffer>(() => undefined) : Promise.resolve(Buffer.from("jpeg")),
    );
    const t = await setup({ downloadMedia, downloadTimeoutMs: LIMIT });
    await t.driver.connect();
    await t.open();
    const Status = proto.WebMessageInfo.Status;
    const chat = `${CONTACT}@s.whatsapp.net`;
    const other = "5215533334444@s.whatsapp.net";
    const started = Date.now();
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        // an image the company's phone sent: its bytes never come
        textMessage("SLOW", "", {
          key: { remoteJid: chat, fromMe: true, id: "SLOW" },
          message: { imageMessage: { mimetype: "image/jpeg", caption: "catálogo" } },
        }),
        textMessage("AFTER", "¿lo viste?"),
        textMessage("OTHER", "hola", { key: { remoteJid: other, fromMe: false, id: "OTHER" } }),
      ],
    });
    t.current().emit("messages.update", [
      { key: { remoteJid: chat, fromMe: true, id: "SLOW" }, update: { status: Status.DELIVERY_ACK } },
      { key: { remoteJid: other, fromMe: true, id: "OUT-1" }, update: { status: Status.READ } },
    ]);
    // while the download hangs, another chat's message and another message's ack get through
    await until(() => t.rec.timeline.includes("message OTHER") && t.rec.timeline.includes("ack OUT-1 4"));
    expect(t.rec.timeline).not.toContain("message SLOW");
    expect(t.rec.timeline).not.toContain("message AFTER");
    expect(t.rec.timeline).not.toContain("ack SLOW 3");

    await t.driver.whenIdle();
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMIT - 5);
    const slow = t.rec.messages.find((m) => m.channelId === "SLOW");
    expect(slow).toMatchObject({ body: "catálogo", mediaType: "image", fromMe: true });
    expect(slow?.media).toBeUndefined();
    // the chat keeps its order, and the stalled message's own ack comes after it, never before its row
    const at = (event: string) => t.rec.timeline.indexOf(event);
    expect(at("message SLOW")).toBeGreaterThan(-1);
    expect(at("message SLOW")).toBeLessThan(at("message AFTER"));
    expect(at("message SLOW")).toBeLessThan(at("ack SLOW 3"));
    await t.driver.disconnect();
  });

  it("should download nothing for a group the company ignores, nor for a message already stored", async () => {
    const downloadMedia = vi.fn(async (_msg: WAMessage) => Buffer.from("jpeg"));
    const groupMetadata = vi.fn(async (jid: string) => ({ id: jid, subject: "Ventas", participants: [] }));
    const known = vi.fn(async (id: string) => id === "STORED");
    let ignoreGroups = true;
    const t = await setup({ downloadMedia }, { groupsIgnored: async () => ignoreGroups, known });
    await t.driver.connect();
    await t.open();
    Object.assign(t.current(), { groupMetadata });
    const image = { imageMessage: { mimetype: "image/jpeg" } };
    const group = "120363012345678901@g.us";
    const inGroup = (id: string) =>
      textMessage(id, "", {
        key: { remoteJid: group, participant: `${CONTACT}@s.whatsapp.net`, fromMe: false, id },
        message: image,
      });
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [inGroup("G-1"), textMessage("STORED", "", { message: image }), textMessage("NEW", "", { message: image })],
    });
    await t.driver.whenIdle();
    expect(downloadMedia.mock.calls.map(([m]) => m.key.id)).toEqual(["NEW"]);
    // the ignored group's subject is not even asked for
    expect(groupMetadata).not.toHaveBeenCalled();
    const byId = (id: string) => t.rec.messages.find((m) => m.channelId === id);
    expect(byId("G-1")?.ignorable).toBe(true);
    expect(byId("STORED")?.ignorable).toBe(true);
    expect(byId("NEW")).toMatchObject({ number: CONTACT, media: { data: Buffer.from("jpeg") } });
    // a text is not looked up: the pipeline's own statement drops a replayed one
    t.current().emit("messages.upsert", { type: "notify", messages: [textMessage("TEXT", "hola")] });
    ignoreGroups = false;
    t.current().emit("messages.upsert", { type: "notify", messages: [inGroup("G-2")] });
    await t.driver.whenIdle();
    expect(known.mock.calls.map(([id]) => id).sort()).toEqual(["G-2", "NEW", "STORED"]);
    expect(downloadMedia.mock.calls.map(([m]) => m.key.id)).toEqual(["NEW", "G-2"]);
    expect(byId("G-2")).toMatchObject({ isGroup: true, name: "Ventas", media: { data: Buffer.from("jpeg") } });
    await t.driver.disconnect();
  });

  it("should count a group member's read or play as delivered, not as the group's", async () => {
    const t = await setup();
    await t.driver.connect();
    await t.open();
    const Status = proto.WebMessageInfo.Status;
    const key = { remoteJid: "120363012345678901@g.us", fromMe: true, id: "OUT-G" };
    const member = "987654321098765@lid";
    t.current().emit("message-receipt.update", [
      { key, receipt: { userJid: member, receiptTimestamp: 1_700_000_100 } },
      { key, receipt: { userJid: member, readTimestamp: 1_700_000_200 } },
      { key, receipt: { userJid: member, playedTimestamp: 1_700_000_300 } },
    ]);
    t.current().emit("messages.update", [
      { key, update: { status: Status.READ } },
      { key, update: { status: Status.PLAYED } },
    ]);
    await t.driver.whenIdle();
    expect(t.rec.acks).toEqual([
      ["OUT-G", 3],
      ["OUT-G", 3],
      ["OUT-G", 3],
      ["OUT-G", 3],
      ["OUT-G", 3],
    ]);
    await t.driver.disconnect();
  });

  it("should reject calls with a text when the company has calls off, and log the missed call", async () => {
    const callsAllowed = vi.fn(async () => false);
    const t = await setup({ callsAllowed });
    await t.driver.connect();
    await t.open();
    const date = new Date("2024-05-01T10:00:00Z");
    t.current().emit("call", [
      {
        chatId: `${CONTACT}@s.whatsapp.net`,
        from: `${CONTACT}@s.whatsapp.net`,
        id: "CALL-1",
        date,
        status: "offer",
        offline: false,
      },
    ]);
    await t.driver.whenIdle();
    expect(t.current().rejectCall).toHaveBeenCalledWith("CALL-1", `${CONTACT}@s.whatsapp.net`);
    expect(t.current().sendMessage).toHaveBeenCalledWith(`${CONTACT}@s.whatsapp.net`, { text: CALLS_DISABLED_TEXT }, {});
    expect(t.rec.messages).toEqual([
      { channelId: "CALL-1", number: CONTACT, fromMe: false, body: "Llamada perdida", mediaType: "call_log", timestamp: date },
    ]);
    await t.driver.disconnect();
  });

  it("should let calls ring when the company allows them", async () => {
    const t = await setup({ callsAllowed: async () => true });
    await t.driver.connect();
    await t.open();
    t.current().emit("call", [
      {
        chatId: `${CONTACT}@s.whatsapp.net`,
        from: `${CONTACT}@s.whatsapp.net`,
        id: "CALL-2",
        date: new Date(),
        status: "offer",
        offline: false,
      },
    ]);
    await t.driver.whenIdle();
    expect(t.current().rejectCall).not.toHaveBeenCalled();
    expect(t.current().sendMessage).not.toHaveBeenCalled();
    await t.driver.disconnect();
  });

  it("should collect the contacts book from contacts.upsert and history sync", async () => {
    const t = await setup();
    await t.driver.connect();
    await expect(t.driver.contactsBook()).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    await t.open();
    t.current().emit("contacts.upsert", [
      { id: "5215522223333@s.whatsapp.net", name: "Carlos" },
      { id: "120363000000000001@g.us", name: "Un grupo" },
    ]);
    t.current().emit("messaging-history.set", {
      chats: [],
      messages: [],
      contacts: [{ id: "444555666777888@lid", phoneNumber: "5215544445555@s.whatsapp.net", notify: "Sofía" }],
      lidPnMappings: [],
    });
    t.current().emit("contacts.update", [{ id: "5215522223333@s.whatsapp.net", notify: "Carlitos" }]);
    await t.driver.whenIdle();
    expect(await t.driver.contactsBook()).toEqual([
      { name: "Carlitos", number: "5215522223333" },
      { name: "Sofía", number: "5215544445555" },
    ]);
    await t.driver.disconnect();

    // a restart: WhatsApp does not send the book again, the stored one answers
    const sockets: FakeSocket[] = [];
    const events = {
      message: async () => {},
      ack: async () => {},
      revoked: async () => {},
      edited: async () => {},
      status: async () => {},
    };
    const restarted = new BaileysDriver(
      { ...t.ref, events },
      {
        db: database.db,
        log: pino({ level: "silent" }),
        makeSocket: (config) => {
          const s = new FakeSocket(config);
          sockets.push(s);
          return s;
        },
      },
    );
    await restarted.connect();
    sockets[0].emit("connection.update", { connection: "open" });
    await restarted.whenIdle();
    expect(await restarted.contactsBook()).toEqual([
      { name: "Carlitos", number: "5215522223333" },
      { name: "Sofía", number: "5215544445555" },
    ]);
    // a new link (another phone, maybe) starts with an empty book
    await restarted.logout();
    await restarted.connect();
    sockets.at(-1)?.emit("connection.update", { connection: "open" });
    await restarted.whenIdle();
    expect(await restarted.contactsBook()).toEqual([]);
    await restarted.disconnect();
  });
});

describe("#baileys driver outbound", () => {
  async function connected(options: Partial<BaileysDriverOptions> = {}) {
    const t = await setup(options);
    await t.driver.connect();
    await t.open();
    return t;
  }

  it("should refuse everything but a profile picture while not connected", async () => {
    const t = await setup();
    await t.driver.connect();
    for (const call of [
      () => t.driver.sendText(CONTACT, "hola"),
      () => t.driver.sendMedia(CONTACT, { data: Buffer.from("x"), mimetype: "image/png", fileName: "a.png" }),
      () => t.driver.deleteForEveryone(CONTACT, "X", true),
      () => t.driver.markRead(CONTACT, [{ channelId: "X" }]),
      () => t.driver.checkNumber(CONTACT),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    }
    expect(await t.driver.profilePicture(CONTACT)).toBeNull();
    expect(t.current().sendMessage).not.toHaveBeenCalled();
    await t.driver.disconnect();
  });

  it("should send text to the contact's jid, or the group's", async () => {
    const t = await connected();
    expect(await t.driver.sendText("+52 1 55 1111 2222", "hola")).toEqual({
      channelId: "OUT-1",
      timestamp: new Date(1_700_000_000 * 1000),
      content: JSON.stringify({ extendedTextMessage: { text: "hola" } }),
    });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(`${CONTACT}@s.whatsapp.net`, { text: "hola" }, {});
    await t.driver.sendText("120363012345678901", "hola grupo", { isGroup: true });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith("120363012345678901@g.us", { text: "hola grupo" }, {});
    await t.driver.disconnect();
  });

  it("should quote a reply with the whole message when Charla knows it, and send a plain message when it does not", async () => {
    const loadQuoted = vi.fn(async (id: string) => (id === "KNOWN" ? { fromMe: false, body: "¿tienen envío?" } : null));
    const t = await connected({ loadQuoted });
    await t.driver.sendText(CONTACT, "sí", { quotedChannelId: "KNOWN" });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(
      `${CONTACT}@s.whatsapp.net`,
      { text: "sí" },
      {
        quoted: {
          key: { remoteJid: `${CONTACT}@s.whatsapp.net`, id: "KNOWN", fromMe: false },
          message: { conversation: "¿tienen envío?" },
        },
      },
    );
    // an id alone draws nothing on the phone: no quote at all
    await t.driver.sendText(CONTACT, "ok", { quotedChannelId: "UNKNOWN" });
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(`${CONTACT}@s.whatsapp.net`, { text: "ok" }, {});
    await t.driver.disconnect();
  });

  it("should quote a group member as the message came, a LID staying a LID", async () => {
    const group = "120363012345678901@g.us";
    const author = "987654321098765@lid";
    const loadQuoted = vi.fn(async (id: string) => {
      if (id === "IN-LID")
        return {
          fromMe: false,
          body: "¿precio?",
          participant: "5215544445555",
          key: encodeKey({ remoteJid: group, participant: author }),
        };
      // a row stored before its address was kept knows only the author's number
      if (id === "IN-OLD") return { fromMe: false, body: "antes", participant: "5215544445555" };
      return null;
    });
    const t = await connected({ loadQuoted });
    const send = t.current().sendMessage;
    const sent = await t.driver.sendText("120363012345678901", "$100", { isGroup: true, quotedChannelId: "IN-LID" });
    expect(send.mock.lastCall?.[2]).toEqual({
      quoted: {
        key: { remoteJid: group, id: "IN-LID", fromMe: false, participant: author },
        message: { conversation: "¿precio?" },
      },
    });
    // what Baileys makes of it: the quote names the member by the LID the group knows them by
    expect(decodeContent(sent.content ?? "")?.extendedTextMessage?.contextInfo).toMatchObject({
      stanzaId: "IN-LID",
      participant: author,
      quotedMessage: { conversation: "¿precio?" },
    });
    await t.driver.sendText("120363012345678901", "ok", { isGroup: true, quotedChannelId: "IN-OLD" });
    expect(send.mock.lastCall?.[2]?.quoted?.key.participant).toBe("5215544445555@s.whatsapp.net");
    await t.driver.disconnect();
  });

  it("should send into a disappearing chat with its timer, as the chat's messages tell it, until it is turned off", async () => {
    const t = await connected();
    const send = t.current().sendMessage;
    const lidChat = "123456789012345@lid";
    const group = "120363012345678901@g.us";
    Object.assign(t.current(), {
      groupMetadata: async (jid: string) => ({ id: jid, subject: "Ventas", participants: [], ephemeralDuration: 86_400 }),
    });
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [
        // as a phone writes in a disappearing chat: the timer in the message's context, here in an ephemeralMessage
        textMessage("E-1", "", {
          key: { remoteJid: lidChat, remoteJidAlt: `${CONTACT}@s.whatsapp.net`, fromMe: false, id: "E-1" },
          message: {
            ephemeralMessage: { message: { extendedTextMessage: { text: "hola", contextInfo: { expiration: 604_800 } } } },
          },
        }),
        // a reaction tells nothing of the timer; the group's metadata, fetched for its subject, does
        textMessage("G-1", "", {
          key: { remoteJid: group, participant: "5215544445555@s.whatsapp.net", fromMe: false, id: "G-1" },
          message: { reactionMessage: { text: "👍", key: { remoteJid: group, id: "OUT-0", fromMe: true } } },
        }),
      ],
    });
    await t.driver.whenIdle();
    const sent = await t.driver.sendText(CONTACT, "¿en qué le ayudo?");
    expect(send).toHaveBeenLastCalledWith(
      `${CONTACT}@s.whatsapp.net`,
      { text: "¿en qué le ayudo?" },
      { ephemeralExpiration: 604_800 },
    );
    // Baileys puts it where the contact's phone reads it
    expect(decodeContent(sent.content ?? "")?.extendedTextMessage?.contextInfo?.expiration).toBe(604_800);
    await t.driver.sendText(lidChat, "por su LID");
    expect(send.mock.lastCall?.[2]).toEqual({ ephemeralExpiration: 604_800 });
    await t.driver.sendMedia(
      CONTACT,
      { data: Buffer.from("%PDF"), mimetype: "application/pdf", fileName: "f.pdf" },
      { messageId: "3EB0X" },
    );
    expect(send.mock.lastCall?.[2]).toEqual({ ephemeralExpiration: 604_800, messageId: "3EB0X" });
    await t.driver.sendText("120363012345678901", "hola grupo", { isGroup: true });
    expect(send.mock.lastCall?.[2]).toEqual({ ephemeralExpiration: 86_400 });

    // turned off: the setting comes as a protocol message (Baileys makes a group's one too)
    const off = (id: string, remoteJid: string) =>
      textMessage(id, "", {
        key: { remoteJid, fromMe: false, id },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 0 } },
      });
    t.current().emit("messages.upsert", {
      type: "notify",
      messages: [off("OFF-1", `${CONTACT}@s.whatsapp.net`), off("OFF-2", group)],
    });
    await t.driver.whenIdle();
    await t.driver.sendText(CONTACT, "sin temporizador");
    expect(send.mock.lastCall?.[2]).toEqual({});
    await t.driver.sendText("120363012345678901", "tampoco aquí", { isGroup: true });
    expect(send.mock.lastCall?.[2]).toEqual({});
    await t.driver.disconnect();
  });

  it("should send media by mimetype: image, video, voice note, audio, document", async () => {
    const t = await connected();
    const data = Buffer.from("bytes");
    const send = t.current().sendMessage;
    await t.driver.sendMedia(CONTACT, { data, mimetype: "image/jpeg", fileName: "a.jpg", caption: "foto" });
    expect(send).toHaveBeenLastCalledWith(expect.any(String), { image: data, caption: "foto", mimetype: "image/jpeg" }, {});
    await t.driver.sendMedia(CONTACT, { data, mimetype: "video/mp4", fileName: "v.mp4" });
    expect(send).toHaveBeenLastCalledWith(expect.any(String), { video: data, caption: undefined, mimetype: "video/mp4" }, {});
    await t.driver.sendMedia(CONTACT, { data, mimetype: "audio/ogg; codecs=opus", fileName: "nota.ogg" });
    expect(send).toHaveBeenLastCalledWith(expect.any(String), { audio: data, mimetype: "audio/ogg; codecs=opus", ptt: true }, {});
    // the composer's voice note (MP3, core §9) goes as Ogg/Opus: phones do not play an MP3 voice note
    const recorded = readFileSync(new URL("./fixtures/tone-1.5s.mp3", import.meta.url));
    await t.driver.sendMedia(CONTACT, { data: recorded, mimetype: "audio/mpeg", fileName: "audio-20240501-101500.mp3" });
    const voice = send.mock.lastCall?.[1] as { audio: Buffer; mimetype: string; ptt: boolean; seconds: number };
    expect(voice).toMatchObject({ mimetype: "audio/ogg; codecs=opus", ptt: true, seconds: 2 });
    expect(voice.audio.subarray(0, 4).toString("ascii")).toBe("OggS");
    // one that cannot be converted still reaches the contact, as an audio file
    await t.driver.sendMedia(CONTACT, { data, mimetype: "audio/mpeg", fileName: "audio-20240501-101501.mp3" });
    expect(send).toHaveBeenLastCalledWith(expect.any(String), { audio: data, mimetype: "audio/mpeg", ptt: false }, {});
    await t.driver.sendMedia(CONTACT, { data, mimetype: "audio/mpeg", fileName: "cancion.mp3" });
    expect(send).toHaveBeenLastCalledWith(expect.any(String), { audio: data, mimetype: "audio/mpeg", ptt: false }, {});
    await t.driver.sendMedia(CONTACT, { data, mimetype: "application/pdf", fileName: "factura.pdf", caption: "su factura" });
    expect(send).toHaveBeenLastCalledWith(
      expect.any(String),
      { document: data, mimetype: "application/pdf", fileName: "factura.pdf", caption: "su factura" },
      {},
    );
    await t.driver.disconnect();
  });

  it("should send a location as a pin and a contact card as a card, each the way the phone reads it back", async () => {
    const t = await connected({ loadQuoted: async () => ({ fromMe: false, body: "¿Me pasas el contacto?" }) });
    const send = t.current().sendMessage;
    const location = { latitude: 19.4326, longitude: -99.1332, description: "Sucursal Centro\nAv. Juárez 10\nPiso 2" };
    await t.driver.sendShared(CONTACT, { kind: "location", location }, { messageId: "3EB0PIN" });
    const pin = send.mock.lastCall?.[1] as AnyMessageContent;
    expect(pin).toEqual({
      location: {
        degreesLatitude: 19.4326,
        degreesLongitude: -99.1332,
        name: "Sucursal Centro",
        address: "Av. Juárez 10 Piso 2",
      },
    });
    expect(send.mock.lastCall?.[2]).toMatchObject({ messageId: "3EB0PIN" });
    // Baileys' own encoding of it, read back as an inbound location would be
    const encoded = await generateWAMessageContent(pin, { upload: vi.fn() } as never);
    expect(locationBody(encoded.locationMessage ?? {})).toBe(
      "|https://maps.google.com/maps?q=19.4326%2C-99.1332&z=17|Sucursal Centro\nAv. Juárez 10 Piso 2",
    );
    const vcard = vcardBody({ name: "Ana López", number: "+52 55 1111 2222" });
    await t.driver.sendShared(CONTACT, { kind: "contact", name: "Ana López", vcard }, { quotedChannelId: "ASKED" });
    const card = send.mock.lastCall?.[1] as AnyMessageContent;
    expect(card).toEqual({ contacts: { displayName: "Ana López", contacts: [{ displayName: "Ana López", vcard }] } });
    expect(send.mock.lastCall?.[2]).toMatchObject({ quoted: { key: expect.objectContaining({ id: "ASKED" }) } });
    const encodedCard = await generateWAMessageContent(card, { upload: vi.fn() } as never);
    expect(encodedCard.contactMessage).toMatchObject({ displayName: "Ana López", vcard });
    await t.driver.disconnect();
  });

  it("should answer send and delete failures with their codes", async () => {
    const t = await connected();
    t.current().sendMessage.mockRejectedValue(new Error("socket hang up"));
    await expect(t.driver.sendText(CONTACT, "hola")).rejects.toMatchObject({ code: "ERR_SENDING_WAPP_MSG" });
    await expect(
      t.driver.sendMedia(CONTACT, { data: Buffer.from("x"), mimetype: "image/png", fileName: "a.png" }),
    ).rejects.toMatchObject({ code: "ERR_SENDING_WAPP_MSG" });
    await expect(t.driver.deleteForEveryone(CONTACT, "OUT-1", true)).rejects.toMatchObject({ code: "ERR_DELETE_WAPP_MSG" });
    await t.driver.disconnect();
  });

  it("should show typing on the contact's chat, and stop it", async () => {
    const t = await connected();
    const presence = vi.fn(async () => undefined);
    Object.assign(t.current(), { sendPresenceUpdate: presence });
    await t.driver.typing(CONTACT, true);
    await t.driver.typing("120363012345678901", false, { isGroup: true });
    expect(presence.mock.calls).toEqual([
      ["composing", `${CONTACT}@s.whatsapp.net`],
      ["paused", "120363012345678901@g.us"],
    ]);
    await t.driver.disconnect();
    await expect(t.driver.typing(CONTACT, true)).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
  });

  it("should delete for everyone and mark as read", async () => {
    const t = await connected();
    const jid = `${CONTACT}@s.whatsapp.net`;
    await t.driver.deleteForEveryone(CONTACT, "OUT-7", true);
    expect(t.current().sendMessage).toHaveBeenLastCalledWith(jid, { delete: { remoteJid: jid, id: "OUT-7", fromMe: true } });
    await t.driver.markRead(CONTACT, [{ channelId: "IN-1" }, { channelId: "IN-2", key: null }]);
    expect(t.current().readMessages).toHaveBeenCalledWith([
      { remoteJid: jid, id: "IN-1", fromMe: false },
      { remoteJid: jid, id: "IN-2", fromMe: false },
    ]);
    await t.driver.disconnect();
  });

  it("should check numbers: normalised digits, null without WhatsApp, codes for invalid input and failures", async () => {
    const t = await connected();
    const sock = t.current();
    sock.onWhatsApp.mockResolvedValueOnce([{ jid: "5215511112222@s.whatsapp.net", exists: true }]);
    expect(await t.driver.checkNumber("+52 (55) 1111-2222")).toBe(CONTACT);
    expect(sock.onWhatsApp).toHaveBeenLastCalledWith("525511112222@s.whatsapp.net");
    sock.onWhatsApp.mockResolvedValueOnce([]);
    expect(await t.driver.checkNumber("5215599999999")).toBeNull();
    await expect(t.driver.checkNumber("12")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    sock.onWhatsApp.mockRejectedValueOnce(new Error("timeout"));
    await expect(t.driver.checkNumber(CONTACT)).rejects.toMatchObject({ code: "ERR_WAPP_CHECK_CONTACT" });
    await t.driver.disconnect();
  });

  it("should fetch profile pictures, null on error", async () => {
    const t = await connected();
    expect(await t.driver.profilePicture(CONTACT)).toBe("https://pps.whatsapp.net/v/pic.jpg");
    t.current().profilePictureUrl.mockRejectedValueOnce(new Error("item-not-found"));
    expect(await t.driver.profilePicture(CONTACT)).toBeNull();
    await t.driver.disconnect();
  });

  it("should hand back what it sent as stored content that decodes to the same message", async () => {
    const t = await connected({ loadQuoted: async () => ({ fromMe: false, body: "¿y la factura?" }) });
    const image = await t.driver.sendMedia(CONTACT, {
      data: Buffer.from("png"),
      mimetype: "image/png",
      fileName: "a.png",
      caption: "mira",
    });
    const decoded = decodeContent(image.content ?? "");
    expect(decoded?.imageMessage?.caption).toBe("mira");
    expect(Buffer.from(decoded?.imageMessage?.mediaKey ?? []).toString()).toBe("k".repeat(32));
    const text = await t.driver.sendText(CONTACT, "hola", { quotedChannelId: "IN-9" });
    expect(decodeContent(text.content ?? "")?.extendedTextMessage).toMatchObject({
      text: "hola",
      contextInfo: { stanzaId: "IN-9", quotedMessage: { conversation: "¿y la factura?" } },
    });
    expect(decodeContent("{broken")).toBeUndefined();
    await t.driver.disconnect();
  });

  it("should answer Baileys' retry requests from getMessage", async () => {
    const getMessage = vi.fn(async (id: string) => (id === "OUT-1" ? { conversation: "reenviado" } : undefined));
    const t = await connected({ getMessage });
    const config = t.current().config;
    expect(await config.getMessage?.({ remoteJid: `${CONTACT}@s.whatsapp.net`, id: "OUT-1", fromMe: true })).toEqual({
      conversation: "reenviado",
    });
    expect(await config.getMessage?.({ id: "NOPE" })).toBeUndefined();
    await t.driver.disconnect();
  });
});
