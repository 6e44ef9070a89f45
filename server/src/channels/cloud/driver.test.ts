import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, whatsapps } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import * as payloads from "../../test/cloud-payloads.js";
import { type CloudConnection, cloudConnection } from "../../test/cloud-kit.js";
import { buildCompany, buildContact, buildMessage, buildTicket } from "../../test/factories.js";
import { type FakeGraph, exampleTemplates, graphTemplate, startFakeGraph } from "../../test/fake-graph.js";
import type { ChannelEvents, ConnectionStatus } from "../driver.js";
import { CloudDriver, type CloudHost } from "./driver.js";
import { TEMPLATE_PAGES_MAX } from "./graph-client.js";

let t: TestApp;
let fake: FakeGraph;
beforeAll(async () => {
  fake = await startFakeGraph({ pageSize: 2 });
  t = await getTestApp({ graphApiUrl: fake.baseUrl });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const CUSTOMER = "5491122334455";

/** Events that only record what the driver tells (statuses), for driver-level tests. */
function recorder() {
  const statuses: { status: ConnectionStatus; number?: string; reason?: string }[] = [];
  const events: ChannelEvents = {
    message: async () => undefined,
    ack: async () => undefined,
    revoked: async () => undefined,
    edited: async () => undefined,
    status: async (status, extra) =>
      void statuses.push({
        status,
        ...(extra?.number ? { number: extra.number } : {}),
        ...(extra?.reason ? { reason: extra.reason } : {}),
      }),
  };
  return { events, statuses };
}

async function world(over: Parameters<typeof cloudConnection>[3] = {}, graph: CloudHost["graph"] = {}) {
  const c = await buildCompany(t.app);
  const wa = await cloudConnection(t.app, c.id, fake, over);
  const { events, statuses } = recorder();
  const host: CloudHost = {
    db: t.app.charla.db,
    log: t.app.log,
    secrets: t.app.charla.secrets,
    config: t.config,
    graph: { rateLimitWaitsMs: [10, 10], timeoutMs: 2_000, ...graph },
  };
  const driver = new CloudDriver({ companyId: c.id, whatsappId: wa.id, events }, host);
  return { c, wa, driver, statuses };
}

/** The sends the fake received since `from` (its count before the test acted). */
const since = (from: number) => fake.sent().slice(from);

describe("Cloud API driver: sending", () => {
  it("sends a text with the bearer token and answers Meta's wamid", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    const sent = await driver.sendText(`+${CUSTOMER}`, "Hola, ¿en qué te ayudo?");
    expect(sent.channelId).toMatch(/^wamid\./);
    const [body] = since(from);
    expect(body).toMatchObject({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: CUSTOMER,
      type: "text",
      text: { body: "Hola, ¿en qué te ayudo?", preview_url: false },
    });
    expect(body.answeredId).toBe(sent.channelId);
    expect(fake.requests.at(-1)?.authorization).toBe(`Bearer ${fake.accessToken}`);
  });

  it("replies with the quoted wamid as context; a quote of another channel's id goes as a plain message", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    await driver.sendText(CUSTOMER, "respuesta", { quotedChannelId: "wamid.HBgLNTQ5MTE=" });
    await driver.sendText(CUSTOMER, "otra", { quotedChannelId: "3EB0ABCDEF" });
    const [reply, plain] = since(from);
    expect(reply.context).toEqual({ message_id: "wamid.HBgLNTQ5MTE=" });
    expect(plain.context).toBeUndefined();
  });

  it("uploads media to the media endpoint and sends it by id: image with caption, document with its name", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    const uploadsBefore = fake.uploads().length;
    const jpeg = Buffer.from("fake-jpeg-bytes");
    await driver.sendMedia(CUSTOMER, { data: jpeg, mimetype: "image/jpeg", fileName: "foto.jpg", caption: "Mira" });
    await driver.sendMedia(CUSTOMER, {
      data: Buffer.from("%PDF-1.4"),
      mimetype: "application/pdf",
      fileName: "factura.pdf",
      caption: "Tu factura",
    });
    const uploads = fake.uploads().slice(uploadsBefore);
    expect(uploads).toEqual([
      expect.objectContaining({ type: "image/jpeg", fileName: "foto.jpg", bytes: jpeg.length }),
      expect.objectContaining({ type: "application/pdf", fileName: "factura.pdf", bytes: 8 }),
    ]);
    const [image, doc] = since(from);
    expect(image).toMatchObject({ type: "image", image: { id: uploads[0].id, caption: "Mira" } });
    expect(doc).toMatchObject({
      type: "document",
      document: { id: uploads[1].id, caption: "Tu factura", filename: "factura.pdf" },
    });
  });

  it("sends audio without a caption (the caption follows as text), webp as a sticker, other images as documents", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    const audio = await driver.sendMedia(CUSTOMER, {
      data: Buffer.from("mp3"),
      mimetype: "audio/mpeg",
      fileName: "nota.mp3",
      caption: "escucha",
    });
    await driver.sendMedia(CUSTOMER, { data: Buffer.from("webp"), mimetype: "image/webp", fileName: "s.webp" });
    await driver.sendMedia(CUSTOMER, { data: Buffer.from("gif"), mimetype: "image/gif", fileName: "a.gif" });
    await driver.sendMedia(CUSTOMER, { data: Buffer.from("mp4"), mimetype: "video/mp4", fileName: "v.mp4", caption: "video" });
    // a file known only as bytes (a send tried again) goes as what its name says
    const uploadsBefore = fake.uploads().length;
    await driver.sendMedia(CUSTOMER, { data: Buffer.from("jpg"), mimetype: "application/octet-stream", fileName: "foto.JPG" });
    expect(
      fake
        .uploads()
        .slice(uploadsBefore)
        .map((u) => u.type),
    ).toEqual(["image/jpeg"]);
    const [a, caption, sticker, gif, video, guessed] = since(from);
    expect(guessed.type).toBe("image");
    expect(a.type).toBe("audio");
    expect(a.audio).not.toHaveProperty("caption");
    expect(a.answeredId).toBe(audio.channelId);
    expect(caption).toMatchObject({ type: "text", text: { body: "escucha" } });
    expect(sticker.type).toBe("sticker");
    expect(gif).toMatchObject({ type: "document", document: { filename: "a.gif" } });
    expect(video).toMatchObject({ type: "video", video: { caption: "video" } });
  });

  it("sends a location (description: name, then address) and a contact card from its vCard", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    await driver.sendShared(CUSTOMER, {
      kind: "location",
      location: { latitude: -34.6037, longitude: -58.3816, description: "Obelisco\nAv. 9 de Julio s/n\nCABA" },
    });
    const vcard = [
      "BEGIN:VCARD",
      "VERSION:3.0",
      "FN:Lucía Fernández",
      "TEL;type=CELL;type=VOICE;waid=5215511110001:+52 1 55 1111 0001",
      "END:VCARD",
    ].join("\n");
    await driver.sendShared(CUSTOMER, { kind: "contact", name: "Lucía Fernández", vcard }, { quotedChannelId: "wamid.Q" });
    const [loc, card] = since(from);
    expect(loc).toMatchObject({
      type: "location",
      location: { latitude: -34.6037, longitude: -58.3816, name: "Obelisco", address: "Av. 9 de Julio s/n CABA" },
    });
    expect(card).toMatchObject({
      type: "contacts",
      context: { message_id: "wamid.Q" },
      contacts: [
        {
          name: { formatted_name: "Lucía Fernández", first_name: "Lucía Fernández" },
          phones: [{ phone: "+52 1 55 1111 0001", wa_id: "5215511110001", type: "CELL" }],
        },
      ],
    });
  });

  it("sends a template with its body parameters in order, and one without parameters with no components", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    const sent = await driver.sendTemplate(CUSTOMER, { name: "seguimiento", language: "es", params: ["Ana", "#123"] });
    await driver.sendTemplate(CUSTOMER, { name: "hello_world", language: "en_US", params: [] });
    const [withParams, bare] = since(from);
    expect(sent.channelId).toBe(withParams.answeredId);
    expect(withParams).toMatchObject({
      type: "template",
      template: graphTemplate("seguimiento", "es", ["Ana", "#123"]),
    });
    expect(bare.template).toEqual({ name: "hello_world", language: { code: "en_US" } });
  });

  it("marks read with one call for the newest of the received messages", async () => {
    const { c, wa, driver } = await world();
    const contact = await buildContact(t.app, c.id, { number: CUSTOMER });
    const ticket = await buildTicket(t.app, c.id, { contactId: contact.id, whatsappId: wa.id });
    const older = await buildMessage(t.app, ticket, { channelId: "wamid.OLDER", createdAt: new Date(Date.now() - 60_000) });
    const newer = await buildMessage(t.app, ticket, { channelId: "wamid.NEWER" });
    const from = fake.sent().length;
    // the order a read gives them in is not the order they came in
    await driver.markRead(CUSTOMER, [
      { channelId: newer.channelId as string },
      { channelId: older.channelId as string },
      { channelId: "3EB0NOTACLOUDID" },
    ]);
    expect(since(from)).toEqual([{ messaging_product: "whatsapp", status: "read", message_id: "wamid.NEWER" }]);
    await driver.markRead(CUSTOMER, [{ channelId: "3EB0ONLYOTHERS" }]);
    expect(since(from)).toHaveLength(1);
  });

  it("refuses groups and numbers that are no numbers, before calling Meta", async () => {
    const { driver } = await world();
    const before = fake.requests.length;
    await expect(driver.sendText("120363000000000000", "x", { isGroup: true })).rejects.toMatchObject({
      code: "ERR_WAPP_INVALID_CONTACT",
    });
    await expect(driver.sendText("abc", "x")).rejects.toMatchObject({ code: "ERR_WAPP_INVALID_CONTACT" });
    await expect(driver.deleteForEveryone()).rejects.toMatchObject({ code: "ERR_DELETE_WAPP_MSG" });
    expect(fake.requests.length).toBe(before);
  });
});

describe("Cloud API driver: what it asks of Meta", () => {
  it("lists templates page after page, by the cursor at the configured URL", async () => {
    const { driver } = await world();
    const many = [...exampleTemplates(), { name: "recordatorio", language: "pt_BR", status: "PENDING", category: "MARKETING" }];
    fake.setTemplates(many);
    try {
      const before = fake.requests.length;
      const listed = await driver.templates();
      expect(listed.map((x) => `${x.name}/${x.language}/${x.status}`)).toEqual([
        "hello_world/en_US/APPROVED",
        "seguimiento/es/APPROVED",
        "recordatorio/pt_BR/PENDING",
      ]);
      expect(listed[1].components).toEqual([{ type: "BODY", text: "Hola {{1}}, seguimos con tu consulta {{2}}." }]);
      // pages of 2: two calls
      const calls = fake.requests.slice(before);
      expect(calls.map((r) => r.path)).toEqual([
        `/v21.0/${fake.businessAccountId}/message_templates`,
        `/v21.0/${fake.businessAccountId}/message_templates`,
      ]);
      expect(calls[1].query).toContain("after=2");
    } finally {
      fake.setTemplates(exampleTemplates());
    }
  });

  it("stops listing after a bounded number of pages", async () => {
    const { driver } = await world();
    const endless = Array.from({ length: TEMPLATE_PAGES_MAX * 2 + 10 }, (_, i) => ({ name: `t${i}`, language: "es" }));
    fake.setTemplates(endless);
    try {
      const before = fake.requests.length;
      const listed = await driver.templates();
      expect(listed).toHaveLength(TEMPLATE_PAGES_MAX * 2);
      expect(fake.requests.length - before).toBe(TEMPLATE_PAGES_MAX);
    } finally {
      fake.setTemplates(exampleTemplates());
    }
  });

  it("probes the number: its display digits and verified name", async () => {
    const { driver } = await world();
    expect(await driver.probe()).toEqual({ number: "15550100199", name: "Charla Test" });
    expect(fake.requests.at(-1)?.query).toContain("fields=display_phone_number%2Cverified_name");
  });

  it("answers what the Cloud API cannot know without asking Meta: the number as given, no picture, no book, no groups", async () => {
    const { driver } = await world();
    const before = fake.requests.length;
    expect(await driver.checkNumber("+54 9 11 2233-4455")).toBe("5491122334455");
    expect(await driver.checkNumber("12")).toBeNull();
    expect(await driver.profilePicture()).toBeNull();
    expect(await driver.contactsBook()).toEqual([]);
    expect("groups" in driver).toBe(false);
    expect(fake.requests.length).toBe(before);
  });

  it("downloads a received file through its media id, with the bearer on both calls", async () => {
    const { c, wa } = await world();
    fake.addMedia("778899", Buffer.from("voice-bytes"), "audio/ogg");
    const before = fake.requests.length;
    const payload = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: fake.businessAccountId,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550100199", phone_number_id: fake.phoneNumberId },
                contacts: [{ profile: { name: "Ana" }, wa_id: CUSTOMER }],
                messages: [
                  {
                    from: CUSTOMER,
                    id: "wamid.VOICE1",
                    timestamp: "1700000000",
                    type: "audio",
                    audio: { id: "778899", mime_type: "audio/ogg; codecs=opus", voice: true },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    const got: { channelId: string; data?: string }[] = [];
    const { events } = recorder();
    const receiving = new CloudDriver(
      {
        companyId: c.id,
        whatsappId: wa.id,
        events: { ...events, message: async (m) => void got.push({ channelId: m.channelId, data: m.media?.data.toString() }) },
      },
      { db: t.app.charla.db, log: t.app.log, secrets: t.app.charla.secrets, config: t.config },
    );
    await receiving.receiveWebhook(payload);
    expect(got).toEqual([{ channelId: "wamid.VOICE1", data: "voice-bytes" }]);
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => r.path)).toEqual(["/v21.0/778899", "/media-download/778899"]);
    expect(calls.every((r) => r.authorization === `Bearer ${fake.accessToken}`)).toBe(true);
  });
});

describe("Cloud API driver: failures", () => {
  const cases: [number, number, string][] = [
    [400, 131047, "ERR_CLOUD_REENGAGEMENT"],
    [400, 131026, "ERR_CLOUD_UNDELIVERABLE"],
    [400, 131048, "ERR_CLOUD_RATE_LIMITED"],
    [400, 80007, "ERR_CLOUD_RATE_LIMITED"],
    [400, 4, "ERR_CLOUD_RATE_LIMITED"],
    [400, 131053, "ERR_CLOUD_MEDIA"],
    [400, 131052, "ERR_CLOUD_MEDIA"],
    [400, 132000, "ERR_CLOUD_TEMPLATE_REJECTED"],
    [400, 132001, "ERR_CLOUD_TEMPLATE_REJECTED"],
    [400, 132016, "ERR_CLOUD_TEMPLATE_REJECTED"],
    [403, 10, "ERR_CLOUD_AUTH"],
    [403, 200, "ERR_CLOUD_AUTH"],
    [400, 0, "ERR_CLOUD_AUTH"],
    [400, 131030, "ERR_CLOUD_API"],
    [500, 131000, "ERR_CLOUD_API"],
  ];
  it.each(cases)("HTTP %i with Meta's code %i fails the send with %s", async (status, code, expected) => {
    const { driver } = await world();
    fake.failNext(status, { code, message: `(#${code}) refused`, details: `details of ${code}` });
    const failure = driver.sendText(CUSTOMER, "hola");
    await expect(failure).rejects.toMatchObject({ code: expected, graphCode: code });
    if (expected === "ERR_CLOUD_API")
      await expect(failure).rejects.toMatchObject({ data: { reason: `(#${code}) details of ${code}` } });
  });

  it("a template Meta refuses fails with ERR_CLOUD_TEMPLATE_REJECTED, and the reason names Meta's details", async () => {
    const { driver } = await world();
    fake.failNext(400, {
      code: 132000,
      message: "(#132000) Number of parameters does not match the expected number of params",
      details: "body: number of localizable_params (1) does not match the expected number of params (2)",
    });
    await expect(driver.sendTemplate(CUSTOMER, { name: "seguimiento", language: "es", params: ["Ana"] })).rejects.toMatchObject({
      code: "ERR_CLOUD_TEMPLATE_REJECTED",
      reason: "(#132000) body: number of localizable_params (1) does not match the expected number of params (2)",
    });
  });

  it("a media upload Meta refuses fails the send before any message goes", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    fake.failNext(400, { code: 131053, message: "(#131053) Media upload error" });
    await expect(
      driver.sendMedia(CUSTOMER, { data: Buffer.from("x"), mimetype: "image/png", fileName: "a.png" }),
    ).rejects.toMatchObject({ code: "ERR_CLOUD_MEDIA" });
    expect(since(from)).toEqual([]);
  });

  it("tries a throughput refusal again after a wait, and gives up with ERR_CLOUD_RATE_LIMITED after the last", async () => {
    const { driver } = await world();
    const from = fake.sent().length;
    fake.failNext(429, { code: 130429, message: "(#130429) Rate limit hit" });
    const sent = await driver.sendText(CUSTOMER, "uno");
    expect(since(from).map((s) => s.answeredId)).toEqual([sent.channelId]);
    fake.failNext(429, { code: 130429, message: "(#130429) Rate limit hit" }, 3);
    await expect(driver.sendText(CUSTOMER, "dos")).rejects.toMatchObject({ code: "ERR_CLOUD_RATE_LIMITED" });
    expect(since(from)).toHaveLength(1);
  });

  it("a call that never answers ends at the time-out with ERR_CLOUD_API", async () => {
    const { driver } = await world({}, { timeoutMs: 300 });
    fake.hangNext();
    await expect(driver.sendText(CUSTOMER, "hola")).rejects.toMatchObject({
      code: "ERR_CLOUD_API",
      reason: expect.stringContaining("no answer"),
    });
  });

  it("a file's upload has a time-out of its own, longer than a call's", async () => {
    const { driver } = await world({}, { timeoutMs: 100, mediaTimeoutMs: 400 });
    fake.hangNext();
    await expect(
      driver.sendMedia(CUSTOMER, { data: Buffer.from("x"), mimetype: "image/png", fileName: "a.png" }),
    ).rejects.toMatchObject({
      code: "ERR_CLOUD_API",
      reason: "no answer from the Graph API within 400 ms",
    });
  });

  it("an answer larger than the limit is refused, not read whole", async () => {
    const { driver } = await world({}, { maxJsonBytes: 64 * 1024 });
    fake.hugeNext(2 * 1024 * 1024);
    await expect(driver.probe()).rejects.toMatchObject({ code: "ERR_CLOUD_API", reason: expect.stringContaining("larger than") });
  });

  it("an unreachable Graph API fails with ERR_CLOUD_API naming the network error", async () => {
    const c = await buildCompany(t.app);
    const wa = await cloudConnection(t.app, c.id, fake);
    const driver = new CloudDriver(
      { companyId: c.id, whatsappId: wa.id, events: recorder().events },
      {
        db: t.app.charla.db,
        log: t.app.log,
        secrets: t.app.charla.secrets,
        config: { ...t.config, graphApiUrl: "http://127.0.0.1:9/v21.0" },
      },
    );
    await expect(driver.sendText(CUSTOMER, "hola")).rejects.toMatchObject({
      code: "ERR_CLOUD_API",
      reason: expect.stringContaining("could not be reached"),
    });
  });

  it("a refused token (190) marks the connection DISCONNECTED; its sends are refused until it is fixed, webhooks still read", async () => {
    const c = await buildCompany(t.app);
    const wa: CloudConnection = await cloudConnection(t.app, c.id, fake, { accessToken: "EAAG-expired" });
    const driver = await t.app.charla.sessions.driverFor(c.id, wa.id);
    expect(driver?.provider).toBe("cloud");
    await expect(driver?.sendText(CUSTOMER, "hola")).rejects.toMatchObject({ code: "ERR_CLOUD_AUTH", graphCode: 190 });
    const status = async () => (await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, wa.id)))[0].status;
    expect(await status()).toBe("DISCONNECTED");
    const [marked] = await t.app.charla.db.select().from(whatsapps).where(eq(whatsapps.id, wa.id));
    expect(marked.statusReason).toBe("ERR_CLOUD_AUTH");
    const before = fake.requests.length;
    await expect(driver?.sendText(CUSTOMER, "hola")).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    expect(fake.requests.length).toBe(before);
    // the customers' messages still reach Charla: nothing is lost while the token is being fixed
    const id = payloads.wamid();
    await driver?.receiveWebhook?.(payloads.text("¿siguen ahí?", { from: CUSTOMER, id }, { phoneNumberId: fake.phoneNumberId }));
    const [stored] = await t.app.charla.db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, wa.id), eq(messages.channelId, id)));
    expect(stored?.body).toBe("¿siguen ahí?");
    // a new token saved (sealed on the row): the same driver uses it at once, without a restart
    await t.app.charla.db
      .update(whatsapps)
      .set({ cloudAccessTokenSealed: t.app.charla.secrets.seal(fake.accessToken), status: "CONNECTED" })
      .where(eq(whatsapps.id, wa.id));
    expect((await driver?.sendText(CUSTOMER, "hola"))?.channelId).toMatch(/^wamid\./);
  });

  it("a token sealed under another key fails with ERR_CLOUD_AUTH, never a crash", async () => {
    const { wa, driver } = await world();
    await t.app.charla.db.update(whatsapps).set({ cloudAccessTokenSealed: "v1.AAAA.BBBB.CCCC" }).where(eq(whatsapps.id, wa.id));
    await expect(driver.sendText(CUSTOMER, "hola")).rejects.toMatchObject({ code: "ERR_CLOUD_AUTH" });
  });
});

describe("Cloud API driver: starting", () => {
  it("a connection asked to start again (OPENING) is probed: CONNECTED with its number, or DISCONNECTED", async () => {
    const ok = await world({ status: "OPENING" });
    await ok.driver.connect();
    expect(ok.statuses).toEqual([{ status: "CONNECTED", number: "15550100199" }]);
    const bad = await world({ status: "OPENING", accessToken: "EAAG-wrong" });
    await bad.driver.connect();
    expect(bad.statuses).toEqual([{ status: "DISCONNECTED", reason: "ERR_CLOUD_AUTH" }]);
    const down = await world({ status: "OPENING" });
    fake.failNext(400, { code: 131000, message: "Something went wrong" });
    await down.driver.connect();
    expect(down.statuses).toEqual([{ status: "DISCONNECTED", reason: "ERR_CLOUD_API" }]);
  });

  it("a CONNECTED or DISCONNECTED connection starts without calling Meta or changing its status", async () => {
    const on = await world();
    const off = await world({ status: "DISCONNECTED" });
    const before = fake.requests.length;
    await on.driver.connect();
    await off.driver.connect();
    await on.driver.disconnect();
    expect(fake.requests.length).toBe(before);
    expect([...on.statuses, ...off.statuses]).toEqual([]);
  });
});
