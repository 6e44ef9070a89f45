import { proto } from "baileys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, getTestApp } from "../test/app.js";
import { buildCompany, buildContact, buildMessage, buildTicket, buildWhatsapp } from "../test/factories.js";
import { baileysDeps } from "./baileys-deps.js";
import { encodeContent } from "./baileys/driver.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

describe("what the WhatsApp Web driver gets back for a retry request", () => {
  it("is the whole message it sent (media keys and quote included), else its text", async () => {
    const c = await buildCompany(t.app);
    const wa = await buildWhatsapp(t.app, c.id, { provider: "beta" });
    const ticket = await buildTicket(t.app, c.id, { contactId: (await buildContact(t.app, c.id)).id, whatsappId: wa.id });
    const image = proto.Message.fromObject({
      imageMessage: {
        url: "https://mmg.whatsapp.net/v/t62/abc.enc",
        mimetype: "image/jpeg",
        caption: "la factura",
        mediaKey: Buffer.from("0123456789abcdef0123456789abcdef"),
        fileSha256: Buffer.from([1, 2, 3, 250]),
        fileLength: 52_341,
        contextInfo: {
          stanzaId: "QUOTED-1",
          participant: "5215511112222@s.whatsapp.net",
          quotedMessage: { conversation: "¿me la mandas?" },
        },
      },
    });
    await buildMessage(t.app, ticket, {
      channelId: "SENT-IMAGE",
      fromMe: true,
      body: "la factura",
      channelContent: encodeContent(image),
    });
    await buildMessage(t.app, ticket, { channelId: "SENT-BEFORE", fromMe: true, body: "texto de antes" });
    await buildMessage(t.app, ticket, { channelId: "SENT-BROKEN", fromMe: true, body: "texto", channelContent: "{not json" });
    const deps = baileysDeps(t.app.charla);

    const again = await deps.getMessage({ companyId: c.id, whatsappId: wa.id }, "SENT-IMAGE");
    expect(again?.imageMessage?.caption).toBe("la factura");
    expect(Buffer.from(again?.imageMessage?.mediaKey ?? []).toString()).toBe("0123456789abcdef0123456789abcdef");
    expect([...(again?.imageMessage?.fileSha256 ?? [])]).toEqual([1, 2, 3, 250]);
    expect(again?.imageMessage?.contextInfo?.stanzaId).toBe("QUOTED-1");
    // it encodes as the same bytes WhatsApp got the first time
    expect(Buffer.from(proto.Message.encode(again as proto.IMessage).finish())).toEqual(
      Buffer.from(proto.Message.encode(image).finish()),
    );

    expect(await deps.getMessage({ companyId: c.id, whatsappId: wa.id }, "SENT-BEFORE")).toEqual({
      conversation: "texto de antes",
    });
    expect(await deps.getMessage({ companyId: c.id, whatsappId: wa.id }, "SENT-BROKEN")).toEqual({ conversation: "texto" });
    expect(await deps.getMessage({ companyId: c.id, whatsappId: wa.id }, "NOPE")).toBeUndefined();
    // another connection's message is not this one's to resend
    const other = await buildWhatsapp(t.app, c.id, { provider: "beta" });
    expect(await deps.getMessage({ companyId: c.id, whatsappId: other.id }, "SENT-IMAGE")).toBeUndefined();
    // nor another company's, whatever connection id it names
    const stranger = await buildCompany(t.app);
    expect(await deps.getMessage({ companyId: stranger.id, whatsappId: wa.id }, "SENT-IMAGE")).toBeUndefined();
  });
});

describe("what the WhatsApp Web driver gets to draw a quote", () => {
  it("is the quoted text, its author and the address it came from, so a LID group member is quoted as such", async () => {
    const c = await buildCompany(t.app);
    const wa = await buildWhatsapp(t.app, c.id, { provider: "beta", number: "5215500000001" });
    const ticket = await buildTicket(t.app, c.id, { contactId: (await buildContact(t.app, c.id)).id, whatsappId: wa.id });
    const key = JSON.stringify({ remoteJid: "120363012345678901@g.us", participant: "987654321098765@lid" });
    await buildMessage(t.app, ticket, { channelId: "IN-Q", body: "¿precio?", participant: "5215544445555", channelKey: key });
    await buildMessage(t.app, ticket, { channelId: "OUT-Q", body: "con gusto", fromMe: true });
    const deps = baileysDeps(t.app.charla);
    expect(await deps.loadQuoted?.({ companyId: c.id, whatsappId: wa.id }, "IN-Q")).toEqual({
      fromMe: false,
      body: "¿precio?",
      participant: "5215544445555",
      key,
    });
    // the company's own message: its author is the linked phone; it has no received address
    expect(await deps.loadQuoted?.({ companyId: c.id, whatsappId: wa.id }, "OUT-Q")).toEqual({
      fromMe: true,
      body: "con gusto",
      participant: "5215500000001",
      key: null,
    });
    expect(await deps.loadQuoted?.({ companyId: c.id, whatsappId: wa.id }, "NOPE")).toBeNull();
  });
});
