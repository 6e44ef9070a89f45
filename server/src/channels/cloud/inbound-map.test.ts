import { Ack, locationOfBody, parseVcard } from "@charla/contracts";
import { describe, expect, it } from "vitest";
import * as P from "../../test/cloud-payloads.js";
import type { ChannelEvents, InboundMessage, MediaPayload } from "../driver.js";
import { describeMessage, PLACEHOLDERS, statusAck } from "./inbound-map.js";
import { receivePayload } from "./receive.js";
import { signatureOf, verifySignature } from "./signature.js";

/** A ChannelEvents that records what a driver hands over; `stored` answers `known`. */
function recorder(stored: string[] = []) {
  const messages: InboundMessage[] = [];
  const acks: { channelId: string; ack: number; error?: string }[] = [];
  const events: ChannelEvents = {
    message: async (m) => {
      messages.push(m);
    },
    ack: async (channelId, ack, error) => {
      acks.push({ channelId, ack, ...(error ? { error } : {}) });
    },
    revoked: async () => undefined,
    edited: async () => undefined,
    status: async () => undefined,
    known: async (id) => stored.includes(id),
  };
  return { events, messages, acks };
}

/** Media served by id, counting downloads; ids in `failing` fail every time. */
function mediaStore(files: Record<string, { data: Buffer; mime: string }>, failing: string[] = []) {
  const asked: string[] = [];
  const media = async (id: string): Promise<MediaPayload> => {
    asked.push(id);
    if (failing.includes(id) || !files[id]) throw Object.assign(new Error("media gone"), { code: "ERR_CLOUD_MEDIA" });
    return { data: files[id].data, mimetype: files[id].mime, fileName: `${id}.bin` };
  };
  return { media, asked };
}

async function receive(
  payload: unknown,
  opts: { stored?: string[]; files?: Record<string, { data: Buffer; mime: string }>; failing?: string[] } = {},
) {
  const r = recorder(opts.stored);
  const m = mediaStore(opts.files ?? {}, opts.failing);
  const log = { warned: [] as unknown[], warn: (obj: unknown) => void log.warned.push(obj) };
  await receivePayload(payload, r.events, m.media, log);
  return { ...r, asked: m.asked, warned: log.warned };
}

const onlyMessage = async (payload: unknown, opts?: Parameters<typeof receive>[1]) => {
  const got = await receive(payload, opts);
  expect(got.messages).toHaveLength(1);
  return got.messages[0];
};

describe("signature (X-Hub-Signature-256)", () => {
  const secret = "app-secret-123";
  const body = JSON.stringify(P.text("Hola"));

  it("accepts Meta's header over the exact bytes", () => {
    expect(verifySignature(secret, body, P.signBody(body, secret))).toBe(true);
    expect(
      verifySignature(secret, Buffer.from(body), signatureOf(secret, body).toUpperCase().replace("SHA256=", "sha256=")),
    ).toBe(true);
  });

  it("refuses a forged, unsigned, malformed or other-secret signature, and a changed body", () => {
    expect(verifySignature(secret, body, P.signBody(body, "another-secret"))).toBe(false);
    expect(verifySignature(secret, `${body} `, P.signBody(body, secret))).toBe(false);
    expect(verifySignature(secret, body, undefined)).toBe(false);
    expect(verifySignature(secret, body, "")).toBe(false);
    expect(verifySignature(secret, body, "sha1=abc")).toBe(false);
    expect(verifySignature(secret, body, `sha256=${"0".repeat(64)}`)).toBe(false);
    expect(verifySignature(secret, body, P.signBody(body, secret).slice(0, -2))).toBe(false);
    // no secret stored: nothing verifies, not even a signature made with an empty key
    expect(verifySignature("", body, P.signBody(body, ""))).toBe(false);
  });
});

describe("receivePayload: every message type of Meta's examples", () => {
  it("text: number, name, wamid, time, and the message it replies to", async () => {
    const id = P.wamid();
    const msg = await onlyMessage(
      P.text("Hola, ¿tienen envío?", {
        id,
        from: "5215512345678",
        name: "Lucía",
        timestamp: 1_700_000_000,
        context: { from: "15550783881", id: "wamid.OUT1" },
      }),
    );
    expect(msg).toEqual({
      channelId: id,
      number: "5215512345678",
      name: "Lucía",
      fromMe: false,
      body: "Hola, ¿tienen envío?",
      mediaType: "chat",
      quotedChannelId: "wamid.OUT1",
      timestamp: new Date(1_700_000_000_000),
    });
  });

  it("image, video, audio, voice note, document and sticker: downloaded by media id, stored under the payload's type and name", async () => {
    const files = {
      "111": { data: Buffer.from("jpeg-bytes"), mime: "image/jpeg" },
      "222": { data: Buffer.from("mp4-bytes"), mime: "video/mp4" },
      "333": { data: Buffer.from("mp3-bytes"), mime: "audio/mpeg" },
      "444": { data: Buffer.from("ogg-bytes"), mime: "audio/ogg" },
      "555": { data: Buffer.from("%PDF-1.4"), mime: "application/pdf" },
      "666": { data: Buffer.from("webp-bytes"), mime: "image/webp" },
    };
    const cases = [
      {
        payload: P.image("111", "Mi factura"),
        mediaType: "image",
        body: "Mi factura",
        fileName: "image-111.jpg",
        id: "111",
        mime: "image/jpeg",
      },
      {
        payload: P.video("222", "Mira"),
        mediaType: "video",
        body: "Mira",
        fileName: "video-222.mp4",
        id: "222",
        mime: "video/mp4",
      },
      { payload: P.audio("333"), mediaType: "audio", body: "", fileName: "audio-333.mp3", id: "333", mime: "audio/mpeg" },
      {
        payload: P.voice("444"),
        mediaType: "audio",
        body: "",
        fileName: "voice-444.ogg",
        id: "444",
        mime: "audio/ogg; codecs=opus",
      },
      {
        payload: P.document("555", "Contrato 2024.pdf", "Firmado"),
        mediaType: "application",
        body: "Firmado",
        fileName: "Contrato 2024.pdf",
        id: "555",
        mime: "application/pdf",
      },
      { payload: P.sticker("666"), mediaType: "sticker", body: "", fileName: "sticker-666.webp", id: "666", mime: "image/webp" },
    ];
    for (const c of cases) {
      const msg = await onlyMessage(c.payload, { files });
      expect(msg, c.fileName).toMatchObject({ mediaType: c.mediaType, body: c.body });
      expect(msg.media?.fileName).toBe(c.fileName);
      expect(msg.media?.mimetype).toBe(c.mime);
      expect(msg.media?.data.equals(files[c.id as keyof typeof files].data)).toBe(true);
    }
  });

  it("a document named with a path keeps only a safe name", async () => {
    const msg = await onlyMessage(P.document("9", "../../etc/passwd"), {
      files: { "9": { data: Buffer.from("x"), mime: "application/pdf" } },
    });
    expect(msg.media?.fileName).not.toContain("/");
  });

  it("a media message whose file cannot be fetched is still a visible message (no media row without its file), logged", async () => {
    const got = await receive(P.image("777", "La foto"), { failing: ["777"] });
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0].media).toBeUndefined();
    expect(got.messages[0].mediaType).toBe("chat");
    expect(got.messages[0].body).toBe(`${PLACEHOLDERS.mediaMissing} (image-777.jpg)\nLa foto`);
    // tried again before giving up
    expect(got.asked).toEqual(["777", "777", "777"]);
    expect(got.warned).toHaveLength(1);
  });

  it("a replayed media message already stored is not downloaded again", async () => {
    const id = P.wamid();
    const got = await receive(P.image("888", "", { id }), {
      stored: [id],
      files: { "888": { data: Buffer.from("x"), mime: "image/jpeg" } },
    });
    expect(got.asked).toEqual([]);
    expect(got.messages[0]).toMatchObject({ channelId: id, ignorable: true });
  });

  it("location: core's location body with its name and address", async () => {
    const msg = await onlyMessage(P.location());
    expect(msg.mediaType).toBe("locationMessage");
    expect(locationOfBody(msg.body)).toEqual({
      latitude: 37.4841,
      longitude: -122.1481,
      description: "Philz Coffee\n101 Forest Ave, Palo Alto, CA 94301",
    });
  });

  it("contacts: a vCard per card, with the WhatsApp id of its phone", async () => {
    const second = {
      name: { formatted_name: "Ana; Pérez\nFN:forged" },
      phones: [{ phone: "+52 55 1234 5678", wa_id: "5215512345678" }],
    };
    const msg = await onlyMessage(P.contacts([P.EXAMPLE_CARD, second]));
    expect(msg.mediaType).toBe("vcard");
    expect(parseVcard(msg.body)).toEqual({ name: "Kerry Fisher", number: "19405551234" });
    expect(msg.body).toContain("EMAIL;type=WORK:kfish@fb.com");
    expect(msg.body).toContain("ORG:Meta;Developer Relations");
    expect(msg.body.match(/BEGIN:VCARD/g)).toHaveLength(2);
    // a name cannot forge vCard fields
    expect(msg.body).not.toMatch(/^FN:forged/m);
    expect(msg.body).toContain("TEL;type=CELL;waid=5215512345678:+52 55 1234 5678");
  });

  it("template quick-reply button, interactive button and list replies: the title tapped, quoting the message", async () => {
    const ctx = { from: "15550783881", id: "wamid.TEMPLATE" };
    expect(await onlyMessage(P.button("No", "No-Button-Payload", { context: ctx }))).toMatchObject({
      body: "No",
      mediaType: "chat",
      quotedChannelId: "wamid.TEMPLATE",
    });
    expect((await onlyMessage(P.buttonReply("btn-yes", "Sí, confirmar"))).body).toBe("Sí, confirmar");
    expect((await onlyMessage(P.listReply("row-2", "Envío a domicilio", "2-3 días"))).body).toBe("Envío a domicilio");
  });

  it("a reaction is its emoji quoting the reacted message; a reaction taken back is ignorable", async () => {
    expect(await onlyMessage(P.reaction("wamid.OUT9", "👍"))).toMatchObject({
      body: "👍",
      quotedChannelId: "wamid.OUT9",
      mediaType: "chat",
    });
    expect(await onlyMessage(P.reaction("wamid.OUT9"))).toMatchObject({ ignorable: true });
  });

  it("a message from an ad keeps its text and says which ad", async () => {
    const msg = await onlyMessage(P.referral("Quiero más información"));
    expect(msg.body).toBe(
      `Quiero más información\n${PLACEHOLDERS.ad}: Ofertas de verano\nHasta 50 % en toda la tienda\nhttps://fb.me/3cr4Wqqkv`,
    );
  });

  it("unsupported, system, order and unknown types become visible placeholders", async () => {
    expect((await onlyMessage(P.unsupported())).body).toBe(
      `${PLACEHOLDERS.unsupported} · 131051: Message type unknown · Message type is currently not supported.`,
    );
    expect((await onlyMessage(P.system("5215599998888"))).body).toBe(`${PLACEHOLDERS.numberChanged}: +5215599998888`);
    expect((await onlyMessage(P.order())).body).toBe(`${PLACEHOLDERS.order} (2 artículos)\nPara el viernes, por favor`);
    expect((await onlyMessage(P.messagePayload("ephemeral", {}))).body).toBe(`${PLACEHOLDERS.unknownType} · ephemeral`);
  });

  it("several messages of a batch, in order, each with its sender's name", async () => {
    const a = P.text("uno", { from: "5491100000001", name: "Ana" });
    const b = P.text("dos", { from: "5491100000002", name: "Beto" });
    const got = await receive(P.batchPayload([a, b]));
    expect(got.messages.map((m) => [m.number, m.name, m.body])).toEqual([
      ["5491100000001", "Ana", "uno"],
      ["5491100000002", "Beto", "dos"],
    ]);
  });

  it("skips what is no message: other fields, a message without sender or id, value-level errors (logged)", async () => {
    const other = {
      object: "whatsapp_business_account",
      entry: [{ id: "1", changes: [{ field: "message_template_status_update", value: { event: "APPROVED" } }] }],
    };
    expect((await receive(other)).messages).toEqual([]);
    const noSender = P.text("x");
    (noSender.entry[0].changes[0].value as { messages: { from?: string }[] }).messages[0].from = "not-a-number";
    const got = await receive(noSender);
    expect(got.messages).toEqual([]);
    expect(got.warned).toHaveLength(1);
    const errors = await receive(P.errorsPayload());
    expect(errors.messages).toEqual([]);
    expect(errors.warned).toHaveLength(1);
    for (const junk of [null, 1, "x", [], { entry: "x" }, { entry: [{ changes: [null, 3] }] }])
      expect((await receive(junk)).messages).toEqual([]);
  });

  it("bounds what it keeps of a hostile payload", async () => {
    const msg = await onlyMessage(P.text("a".repeat(100_000)));
    expect(msg.body.length).toBeLessThanOrEqual(20_000);
    const nul = await onlyMessage(P.text("ho\u0000la"));
    expect(nul.body).toBe("hola");
    const odd = P.text("sin nombre", { from: "5215500000001" });
    (odd.entry[0].changes[0].value as { contacts: { profile: { name: unknown } }[] }).contacts[0].profile.name = { x: 1 };
    expect((await onlyMessage(odd)).name).toBeUndefined();
  });
});

describe("statuses → acks", () => {
  it("sent, delivered and read on WhatsApp's scale", async () => {
    const got = await receive(
      P.batchPayload([P.status("wamid.A", "sent"), P.status("wamid.A", "delivered"), P.status("wamid.A", "read")]),
    );
    expect(got.acks).toEqual([
      { channelId: "wamid.A", ack: Ack.server },
      { channelId: "wamid.A", ack: Ack.delivered },
      { channelId: "wamid.A", ack: Ack.read },
    ]);
  });

  it("failed carries the catalogue's reason for Meta's code", async () => {
    const cases: [number, string][] = [
      [131047, "ERR_CLOUD_REENGAGEMENT"],
      [131026, "ERR_CLOUD_UNDELIVERABLE"],
      [130429, "ERR_CLOUD_RATE_LIMITED"],
      [131056, "ERR_CLOUD_RATE_LIMITED"],
      [132001, "ERR_CLOUD_TEMPLATE_REJECTED"],
      [131053, "ERR_CLOUD_MEDIA"],
      [190, "ERR_CLOUD_AUTH"],
      [999999, "ERR_SENDING_WAPP_MSG"],
    ];
    for (const [code, error] of cases) {
      const got = await receive(P.status("wamid.F", "failed", { code }));
      expect(got.acks, String(code)).toEqual([{ channelId: "wamid.F", ack: Ack.failed, error }]);
    }
  });

  it("statuses Charla keeps no ack for are left", () => {
    expect(statusAck({ id: "wamid.X", status: "deleted" })).toBeNull();
    expect(statusAck({ status: "read" })).toBeNull();
  });
});

describe("describeMessage", () => {
  it("a welcome request (the customer opened the chat) is ignorable; an empty text too", () => {
    expect(describeMessage({ type: "request_welcome" }).kind).toBe("ignorable");
    expect(describeMessage({ type: "text", text: { body: "  " } }).kind).toBe("ignorable");
  });
});
