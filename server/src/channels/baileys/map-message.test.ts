import { proto, type WAMessage } from "baileys";
import { describe, expect, it, vi } from "vitest";
import type { InboundMessage } from "../driver.js";
import { memoryLidStore } from "./lid-store.js";
import {
  ackFromReceipt,
  ackFromStatus,
  describe as describeMessage,
  expirationOf,
  extensionFor,
  locationBody,
  type MapDeps,
  type Mapped,
  mapMessage,
  mapUpdate,
} from "./map-message.js";

const CONTACT = "5215511112222";
const JID = `${CONTACT}@s.whatsapp.net`;
const TS = 1_700_000_000;

/** A received 1:1 message built with Baileys' own proto class. */
function incoming(message: proto.IMessage, extra: Partial<proto.IWebMessageInfo> = {}): WAMessage {
  return proto.WebMessageInfo.fromObject({
    key: { remoteJid: JID, fromMe: false, id: "MSG1" },
    message,
    messageTimestamp: TS,
    pushName: "Lucía",
    ...extra,
  }) as WAMessage;
}

function deps(extra: Partial<MapDeps> = {}): MapDeps {
  return { lids: memoryLidStore(), ...extra };
}

async function asMessage(msg: WAMessage, d: MapDeps = deps()): Promise<InboundMessage> {
  const mapped = await mapMessage(msg, d);
  if (mapped.kind !== "message") throw new Error(`expected a message, got ${mapped.kind}`);
  return mapped.message;
}

const bytes = (s: string) => Buffer.from(s);

describe("#baileys map-message", () => {
  describe("text", () => {
    it("should map a plain conversation with number, push name and time", async () => {
      expect(await asMessage(incoming({ conversation: "Hola, buenas tardes" }))).toEqual({
        channelId: "MSG1",
        number: CONTACT,
        name: "Lucía",
        fromMe: false,
        body: "Hola, buenas tardes",
        mediaType: "chat",
        timestamp: new Date(TS * 1000),
      });
    });

    it("should map an extended text and a reply's quoted id", async () => {
      const msg = await asMessage(
        incoming({ extendedTextMessage: { text: "Sí, ese mismo", contextInfo: { stanzaId: "QUOTED1", participant: JID } } }),
      );
      expect(msg).toMatchObject({ body: "Sí, ese mismo", mediaType: "chat", quotedChannelId: "QUOTED1" });
    });

    it("should unwrap ephemeral and view-once envelopes", async () => {
      const msg = await asMessage(incoming({ ephemeralMessage: { message: { extendedTextMessage: { text: "efímero" } } } }));
      expect(msg).toMatchObject({ body: "efímero", mediaType: "chat" });
    });

    it("should drop NUL characters and lone surrogates PostgreSQL cannot store, keeping the rest", async () => {
      const msg = await asMessage(incoming({ conversation: "Ho\u0000la \ud83d" }, { pushName: "Lu\u0000cía" }));
      expect(msg).toMatchObject({ body: "Hola \ufffd", name: "Lucía" });
      const doc = await asMessage(
        incoming({ documentMessage: { fileName: "fac\u0000tura.pdf", caption: "\u0000ver", mimetype: "application/pdf" } }),
      );
      expect(doc).toMatchObject({ body: "ver", mediaType: "application" });
      const edit = await mapMessage(
        incoming({
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            key: { remoteJid: JID, fromMe: false, id: "ORIGINAL" },
            editedMessage: { conversation: "corre\u0000gido" },
          },
        }),
        deps(),
      );
      expect(edit).toEqual<Mapped>({ kind: "edited", channelId: "ORIGINAL", body: "corregido" });
    });

    it("should keep messages sent from the company's phone (fromMe) without taking the phone's push name", async () => {
      const msg = await asMessage(
        incoming({ conversation: "Enviado desde el teléfono" }, { key: { remoteJid: JID, fromMe: true, id: "ME1" } }),
      );
      expect(msg).toMatchObject({ channelId: "ME1", fromMe: true, number: CONTACT, body: "Enviado desde el teléfono" });
      expect(msg.name).toBeUndefined();
    });
  });

  describe("media", () => {
    it("should download an image with its caption", async () => {
      const download = vi.fn(async () => bytes("jpeg-bytes"));
      const msg = await asMessage(
        incoming({ imageMessage: { caption: "mi factura", mimetype: "image/jpeg", contextInfo: { stanzaId: "Q2" } } }),
        deps({ download }),
      );
      expect(download).toHaveBeenCalledOnce();
      expect(msg).toMatchObject({ body: "mi factura", mediaType: "image", quotedChannelId: "Q2" });
      expect(msg.media).toEqual({ data: bytes("jpeg-bytes"), mimetype: "image/jpeg", fileName: "image-MSG1.jpg" });
    });

    it("should map a voice note (ptt) and a plain audio", async () => {
      const download = async () => bytes("ogg");
      const voice = await asMessage(
        incoming({ audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true } }),
        deps({ download }),
      );
      expect(voice).toMatchObject({ body: "", mediaType: "audio" });
      expect(voice.media).toMatchObject({ mimetype: "audio/ogg; codecs=opus", fileName: "voice-MSG1.ogg" });
      const audio = await asMessage(incoming({ audioMessage: { mimetype: "audio/mpeg" } }), deps({ download }));
      expect(audio.media).toMatchObject({ mimetype: "audio/mpeg", fileName: "audio-MSG1.mp3" });
    });

    it("should map a video and a video note", async () => {
      const download = async () => bytes("mp4");
      const video = await asMessage(incoming({ videoMessage: { mimetype: "video/mp4", caption: "mira" } }), deps({ download }));
      expect(video).toMatchObject({ body: "mira", mediaType: "video", media: { fileName: "video-MSG1.mp4" } });
      const note = await asMessage(incoming({ ptvMessage: { mimetype: "video/mp4" } }), deps({ download }));
      expect(note).toMatchObject({ body: "", mediaType: "video" });
    });

    it("should map a document by its own file name, and a document with caption", async () => {
      const download = async () => bytes("%PDF");
      const doc = await asMessage(
        incoming({ documentMessage: { mimetype: "application/pdf", fileName: "contrato.pdf" } }),
        deps({ download }),
      );
      expect(doc).toMatchObject({ body: "", mediaType: "application" });
      expect(doc.media).toEqual({ data: bytes("%PDF"), mimetype: "application/pdf", fileName: "contrato.pdf" });
      const withCaption = await asMessage(
        incoming({
          documentWithCaptionMessage: {
            message: { documentMessage: { mimetype: "application/pdf", fileName: "cotización.pdf", caption: "la cotización" } },
          },
        }),
        deps({ download }),
      );
      expect(withCaption).toMatchObject({
        body: "la cotización",
        mediaType: "application",
        media: { fileName: "cotización.pdf" },
      });
    });

    it("should map a sticker", async () => {
      const msg = await asMessage(
        incoming({ stickerMessage: { mimetype: "image/webp" } }),
        deps({ download: async () => bytes("webp") }),
      );
      expect(msg).toMatchObject({
        body: "",
        mediaType: "sticker",
        media: { mimetype: "image/webp", fileName: "sticker-MSG1.webp" },
      });
    });

    it("should not download the media of a message already stored (a replay)", async () => {
      const download = vi.fn(async () => bytes("jpeg"));
      const known = vi.fn(async (id: string) => id === "MSG1");
      const replay = await asMessage(incoming({ imageMessage: { mimetype: "image/jpeg" } }), deps({ download, known }));
      expect(replay.ignorable).toBe(true);
      expect(download).not.toHaveBeenCalled();
      const fresh = await asMessage(
        incoming({ imageMessage: { mimetype: "image/jpeg" } }, { key: { remoteJid: JID, fromMe: false, id: "MSG2" } }),
        deps({ download, known }),
      );
      expect(fresh.media?.data).toEqual(bytes("jpeg"));
      expect(known.mock.calls).toEqual([["MSG1"], ["MSG2"]]);
    });

    it("should still deliver the message, without media, when the download fails", async () => {
      const log = { warn: vi.fn() };
      const msg = await asMessage(
        incoming({ imageMessage: { caption: "la foto", mimetype: "image/jpeg" } }),
        deps({ download: async () => Promise.reject(new Error("410 gone")), log }),
      );
      expect(msg).toMatchObject({ channelId: "MSG1", body: "la foto", mediaType: "image" });
      expect(msg.media).toBeUndefined();
      expect(log.warn).toHaveBeenCalledOnce();
    });
  });

  describe("location, contacts, reactions, calls", () => {
    it("should render a location as thumbnail|maps link|description", async () => {
      const thumb = bytes("jpeg-thumb");
      const msg = await asMessage(
        incoming({
          locationMessage: {
            degreesLatitude: 19.4326,
            degreesLongitude: -99.1332,
            name: "Zócalo",
            address: "Centro, CDMX",
            jpegThumbnail: thumb,
          },
        }),
      );
      expect(msg.mediaType).toBe("locationMessage");
      expect(msg.body).toBe(
        `data:image/jpeg;base64,${thumb.toString("base64")}|https://maps.google.com/maps?q=19.4326%2C-99.1332&z=17|Zócalo\nCentro, CDMX`,
      );
      expect(locationBody({ degreesLatitude: 1, degreesLongitude: 2 })).toBe("|https://maps.google.com/maps?q=1%2C2&z=17|");
    });

    it("should map a live location like a location", async () => {
      const msg = await asMessage(
        incoming({ liveLocationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.5, caption: "aquí" } }),
      );
      expect(msg).toMatchObject({ mediaType: "locationMessage", body: "|https://maps.google.com/maps?q=1.5%2C2.5&z=17|aquí" });
    });

    it("should keep a contact card's raw vCard, and every card of a contacts array", async () => {
      const vcard = "BEGIN:VCARD\nVERSION:3.0\nFN:Carlos\nTEL;type=CELL;waid=5215522223333:+52 1 55 2222 3333\nEND:VCARD";
      const one = await asMessage(incoming({ contactMessage: { displayName: "Carlos", vcard } }));
      expect(one).toMatchObject({ body: vcard, mediaType: "vcard" });
      // a card without vCard text gets one built from its display name
      const second = "BEGIN:VCARD\nVERSION:3.0\nN:;Sofía;;;\nFN:Sofía\nEND:VCARD";
      const many = await asMessage(
        incoming({ contactsArrayMessage: { displayName: "2 contactos", contacts: [{ vcard }, { displayName: "Sofía" }] } }),
      );
      expect(many).toMatchObject({ body: `${vcard}\n${second}`, mediaType: "vcard" });
    });

    it("should store a reaction as its emoji quoting the reacted message, and ignore a removed one", async () => {
      const reaction = await asMessage(
        incoming({ reactionMessage: { key: { remoteJid: JID, fromMe: true, id: "OUR-MSG" }, text: "👍" } }),
      );
      expect(reaction).toMatchObject({ body: "👍", mediaType: "chat", quotedChannelId: "OUR-MSG" });
      const removed = await asMessage(incoming({ reactionMessage: { key: { id: "OUR-MSG" }, text: "" } }));
      expect(removed.ignorable).toBe(true);
    });

    it("should map missed voice and video calls to call_log", async () => {
      const Stub = proto.WebMessageInfo.StubType;
      const voice = await asMessage(incoming({}, { message: null, messageStubType: Stub.CALL_MISSED_VOICE }));
      expect(voice).toMatchObject({ body: "Llamada perdida", mediaType: "call_log", number: CONTACT, fromMe: false });
      const video = await asMessage(incoming({}, { message: null, messageStubType: Stub.CALL_MISSED_VIDEO }));
      expect(video).toMatchObject({ body: "Videollamada perdida", mediaType: "call_log" });
    });
  });

  describe("polls, events, invitations, products and orders", () => {
    const body = async (message: proto.IMessage) => {
      const msg = await asMessage(incoming(message));
      expect(msg).toMatchObject({ mediaType: "chat", fromMe: false, number: CONTACT });
      expect(msg.ignorable).toBeUndefined();
      return msg.body;
    };

    it("should store a poll as its question and options, whichever version the phone sent", async () => {
      const poll = {
        name: "¿Qué día le queda?",
        options: [{ optionName: "Lunes" }, { optionName: "Martes" }],
        selectableOptionsCount: 1,
      };
      const expected = "📊 Encuesta: ¿Qué día le queda?\n- Lunes\n- Martes";
      expect(await body({ pollCreationMessage: poll })).toBe(expected);
      expect(await body({ pollCreationMessageV2: poll })).toBe(expected);
      // as phones send them today: V3, with the poll's secret beside it
      expect(await body({ messageContextInfo: { messageSecret: bytes("s".repeat(32)) }, pollCreationMessageV3: poll })).toBe(
        expected,
      );
      expect(await body({ pollCreationMessageV3: { name: "¿Sí?" } })).toBe("📊 Encuesta: ¿Sí?");
    });

    it("should store an event, a group invitation, a product and an order as a line the agent can read", async () => {
      expect(await body({ eventMessage: { name: "Inauguración", description: "Sucursal Centro", startTime: TS } })).toBe(
        "📅 Evento: Inauguración\nSucursal Centro",
      );
      expect(await body({ eventMessage: { name: "Inauguración", isCanceled: true } })).toBe("📅 Evento cancelado: Inauguración");
      expect(
        await body({
          groupInviteMessage: {
            groupJid: "120363012345678901@g.us",
            inviteCode: "AbCdEf",
            groupName: "Clientes VIP",
            caption: "Únete",
          },
        }),
      ).toBe("👥 Invitación al grupo Clientes VIP\nÚnete");
      expect(
        await body({
          productMessage: {
            product: { productId: "P1", title: "Pastel de chocolate", currencyCode: "MXN", priceAmount1000: 350_000 },
            businessOwnerJid: JID,
          },
        }),
      ).toBe("🛍️ Producto: Pastel de chocolate");
      expect(
        await body({
          orderMessage: { orderId: "ORD-77", orderTitle: "Pedido de pasteles", itemCount: 3, message: "Para el sábado" },
        }),
      ).toBe("🧾 Pedido Pedido de pasteles (3 artículos)\nPara el sábado");
      expect(await body({ orderMessage: { orderId: "ORD-78", itemCount: 1 } })).toBe("🧾 Pedido ORD-78 (1 artículo)");
    });

    it("should keep the quote of a placeholder's reply", async () => {
      const msg = await asMessage(
        incoming({ pollCreationMessageV3: { name: "¿Cuál?", options: [{ optionName: "A" }], contextInfo: { stanzaId: "Q9" } } }),
      );
      expect(msg.quotedChannelId).toBe("Q9");
    });
  });

  describe("edits and deletions", () => {
    it("should turn a MESSAGE_EDIT protocol message into an edited event", async () => {
      const mapped = await mapMessage(
        incoming({
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            key: { remoteJid: JID, fromMe: false, id: "ORIGINAL" },
            editedMessage: { conversation: "texto corregido" },
          },
        }),
        deps(),
      );
      expect(mapped).toEqual<Mapped>({ kind: "edited", channelId: "ORIGINAL", body: "texto corregido" });
    });

    it("should unwrap an edit sent inside editedMessage", async () => {
      const mapped = await mapMessage(
        incoming({
          editedMessage: {
            message: {
              protocolMessage: {
                type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
                key: { id: "ORIGINAL" },
                editedMessage: { extendedTextMessage: { text: "otra vez" } },
              },
            },
          },
        }),
        deps(),
      );
      expect(mapped).toEqual({ kind: "edited", channelId: "ORIGINAL", body: "otra vez" });
    });

    it("should turn a REVOKE protocol message into a revoked event (the contact deleted it)", async () => {
      const mapped = await mapMessage(
        incoming({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: JID, id: "GONE" } } }),
        deps(),
      );
      expect(mapped).toEqual({ kind: "revoked", channelId: "GONE" });
    });
  });

  describe("ignorable", () => {
    const ignorable = async (msg: WAMessage) => {
      const mapped = await asMessage(msg);
      expect(mapped.ignorable).toBe(true);
      return mapped;
    };

    it("should ignore status broadcasts", async () => {
      await ignorable(
        incoming({ conversation: "mi estado" }, { key: { remoteJid: "status@broadcast", id: "S1", participant: JID } }),
      );
    });

    it("should ignore protocol stubs and other protocol messages", async () => {
      const Stub = proto.WebMessageInfo.StubType;
      await ignorable(incoming({}, { message: null, messageStubType: Stub.GROUP_PARTICIPANT_ADD }));
      await ignorable(incoming({}, { message: null, messageStubType: Stub.CIPHERTEXT }));
      await ignorable(
        incoming({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } }),
      );
    });

    it("should ignore key exchanges (senderKeyDistributionMessage only)", async () => {
      await ignorable(
        incoming({
          senderKeyDistributionMessage: { groupId: "120363000000000001@g.us", axolotlSenderKeyDistributionMessage: bytes("k") },
          messageContextInfo: { deviceListMetadataVersion: 2 },
        }),
      );
    });

    it("should ignore a message without content, poll votes and unsupported kinds", async () => {
      await ignorable(incoming({}, { message: null }));
      // a vote is encrypted for the poll's author; a ticket line per vote would be noise
      await ignorable(
        incoming({
          pollUpdateMessage: {
            pollCreationMessageKey: { remoteJid: JID, fromMe: true, id: "POLL1" },
            vote: { encPayload: bytes("vote"), encIv: bytes("iv") },
            senderTimestampMs: TS * 1000,
          },
        }),
      );
      await ignorable(incoming({ pinInChatMessage: { key: { remoteJid: JID, id: "X" }, type: 1 } }));
    });

    it("should not download media of an ignorable message", async () => {
      const download = vi.fn(async () => bytes("x"));
      const msg = await asMessage(
        incoming({ imageMessage: { mimetype: "image/jpeg" } }, { key: { remoteJid: "status@broadcast", id: "S2" } }),
        deps({ download }),
      );
      expect(msg.ignorable).toBe(true);
      expect(download).not.toHaveBeenCalled();
    });
  });

  describe("groups and LIDs", () => {
    const GROUP = "120363012345678901@g.us";

    it("should map a group message with the group as contact and the author as participant", async () => {
      const msg = await asMessage(
        proto.WebMessageInfo.fromObject({
          key: { remoteJid: GROUP, fromMe: false, id: "G1", participant: "5215533334444@s.whatsapp.net" },
          message: { conversation: "hola grupo" },
          pushName: "Ana",
          messageTimestamp: TS,
        }) as WAMessage,
        deps({ groupSubject: async () => "Ventas CDMX" }),
      );
      expect(msg).toMatchObject({
        number: "120363012345678901",
        name: "Ventas CDMX",
        isGroup: true,
        participant: { number: "5215533334444", name: "Ana" },
        body: "hola grupo",
      });
    });

    it("should drop a group message before fetching anything when the company ignores groups", async () => {
      const download = vi.fn(async () => bytes("jpeg"));
      const groupSubject = vi.fn(async () => "Ventas CDMX");
      const message = proto.WebMessageInfo.fromObject({
        key: { remoteJid: GROUP, fromMe: false, id: "G2", participant: "5215533334444@s.whatsapp.net" },
        message: { imageMessage: { mimetype: "image/jpeg" } },
        messageTimestamp: TS,
      }) as WAMessage;
      const dropped = await asMessage(message, deps({ download, groupSubject, groupsIgnored: async () => true }));
      expect(dropped.ignorable).toBe(true);
      expect(download).not.toHaveBeenCalled();
      expect(groupSubject).not.toHaveBeenCalled();
      // a question that fails never drops a message
      const kept = await asMessage(
        message,
        deps({ download, groupSubject, groupsIgnored: async () => Promise.reject(new Error("db")) }),
      );
      expect(kept).toMatchObject({ isGroup: true, name: "Ventas CDMX", media: { data: bytes("jpeg") } });
    });

    it("should resolve a LID author through participantAlt and remember the mapping", async () => {
      const lids = memoryLidStore();
      const msg: WAMessage = {
        key: {
          remoteJid: GROUP,
          fromMe: false,
          id: "G2",
          participant: "98765432101234@lid",
          participantAlt: "5215544445555@s.whatsapp.net",
          addressingMode: "lid",
        },
        message: { conversation: "desde lid" },
        pushName: "Beto",
      };
      expect(await asMessage(msg, deps({ lids }))).toMatchObject({ participant: { number: "5215544445555", name: "Beto" } });
      expect(lids.entries.get("98765432101234")).toBe("5215544445555");
    });

    it("should resolve a LID chat through remoteJidAlt and remember it", async () => {
      const lids = memoryLidStore();
      const msg: WAMessage = {
        key: { remoteJid: "11122233344455@lid", remoteJidAlt: "5215566667777@s.whatsapp.net", fromMe: false, id: "L1" },
        message: { conversation: "hola" },
        pushName: "Carla",
      };
      expect(await asMessage(msg, deps({ lids }))).toMatchObject({ number: "5215566667777", name: "Carla" });
      expect(lids.entries.get("11122233344455")).toBe("5215566667777");
    });

    it("should use a remembered mapping when the message carries none, else the LID itself as the address", async () => {
      const lids = memoryLidStore({ "11122233344455": "5215566667777" });
      const known: WAMessage = { key: { remoteJid: "11122233344455@lid", id: "L2" }, message: { conversation: "otra" } };
      expect((await asMessage(known, deps({ lids }))).number).toBe("5215566667777");
      const unknown: WAMessage = { key: { remoteJid: "99988877766655@lid", id: "L3" }, message: { conversation: "?" } };
      // not a phone number: a reply built from the digits would go to a user that does not exist
      expect((await asMessage(unknown, deps({ lids }))).number).toBe("99988877766655@lid");
    });

    it("should not take the company's own number for a contact on a message sent from the phone", async () => {
      const lids = memoryLidStore({ "11122233344455": "5215566667777" });
      const msg: WAMessage = {
        key: { remoteJid: "11122233344455@lid", remoteJidAlt: "5215500000001@s.whatsapp.net", fromMe: true, id: "L4" },
        message: { conversation: "respuesta desde el teléfono" },
      };
      expect((await asMessage(msg, deps({ lids, ownNumber: "5215500000001" }))).number).toBe("5215566667777");
      expect(lids.entries.get("11122233344455")).toBe("5215566667777");
    });

    it("should drop a note the company's phone wrote to itself (Message yourself): no contact, no ticket", async () => {
      const own = "5215500000001";
      const note = (key: WAMessage["key"]): WAMessage => ({ key, message: { conversation: "recordar pedido" } });
      for (const key of [
        { remoteJid: `${own}@s.whatsapp.net`, fromMe: true, id: "SELF-1" },
        { remoteJid: "77788899900011@lid", remoteJidAlt: `${own}@s.whatsapp.net`, fromMe: false, id: "SELF-2" },
      ]) {
        expect(await asMessage(note(key), deps({ ownNumber: own }))).toMatchObject({ ignorable: true, number: own });
      }
      // the same from anyone else is a conversation
      expect(
        (await asMessage(note({ remoteJid: "5215566667777@s.whatsapp.net", fromMe: true, id: "X" }), deps({ ownNumber: own })))
          .ignorable,
      ).toBeUndefined();
    });
  });

  describe("updates and acks", () => {
    const Status = proto.WebMessageInfo.Status;

    it("should map Baileys statuses to WhatsApp's own ack numbers, an error to -1", () => {
      expect(ackFromStatus(Status.ERROR)).toBe(-1);
      expect(ackFromStatus(Status.PENDING)).toBe(1);
      expect(ackFromStatus(Status.SERVER_ACK)).toBe(2);
      expect(ackFromStatus(Status.DELIVERY_ACK)).toBe(3);
      expect(ackFromStatus(Status.READ)).toBe(4);
      expect(ackFromStatus(Status.PLAYED)).toBe(5);
      expect(ackFromStatus(undefined)).toBeNull();
    });

    it("should map receipts to acks: delivered 3, read 4, played 5", () => {
      expect(ackFromReceipt({ userJid: JID, receiptTimestamp: TS })).toBe(3);
      expect(ackFromReceipt({ userJid: JID, receiptTimestamp: TS, readTimestamp: TS }, JID)).toBe(4);
      expect(ackFromReceipt({ userJid: JID, playedTimestamp: TS })).toBe(5);
      expect(ackFromReceipt({ userJid: JID })).toBeNull();
    });

    it("should count one group member reading or playing as delivered (3), not the group's read", () => {
      const GROUP = "120363012345678901@g.us";
      expect(ackFromReceipt({ userJid: JID, receiptTimestamp: TS }, GROUP)).toBe(3);
      expect(ackFromReceipt({ userJid: JID, readTimestamp: TS }, GROUP)).toBe(3);
      expect(ackFromReceipt({ userJid: JID, playedTimestamp: TS }, GROUP)).toBe(3);
      const key = { remoteJid: GROUP, fromMe: true, id: "OUT-G" };
      expect(mapUpdate({ key, update: { status: Status.READ } })).toEqual([{ kind: "ack", channelId: "OUT-G", ack: 3 }]);
      expect(mapUpdate({ key, update: { status: Status.PLAYED } })).toEqual([{ kind: "ack", channelId: "OUT-G", ack: 3 }]);
      expect(mapUpdate({ key, update: { status: Status.SERVER_ACK } })).toEqual([{ kind: "ack", channelId: "OUT-G", ack: 2 }]);
      // a send the group never got still fails
      expect(mapUpdate({ key, update: { status: Status.ERROR } })).toEqual([
        { kind: "ack", channelId: "OUT-G", ack: -1, error: "ERR_SENDING_WAPP_MSG" },
      ]);
    });

    it("should map messages.update entries to acks, revokes and edits", () => {
      const key = { remoteJid: JID, fromMe: true, id: "OUT1" };
      expect(mapUpdate({ key, update: { status: Status.READ } })).toEqual([{ kind: "ack", channelId: "OUT1", ack: 4 }]);
      expect(mapUpdate({ key, update: { status: Status.DELIVERY_ACK } })).toEqual([{ kind: "ack", channelId: "OUT1", ack: 3 }]);
      expect(mapUpdate({ key, update: { status: Status.ERROR } })).toEqual([
        { kind: "ack", channelId: "OUT1", ack: -1, error: "ERR_SENDING_WAPP_MSG" },
      ]);
      expect(mapUpdate({ key, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE, key } })).toEqual([
        { kind: "revoked", channelId: "OUT1" },
      ]);
      expect(
        mapUpdate({
          key,
          update: { message: { editedMessage: { message: { conversation: "editado" } } }, messageTimestamp: TS },
        }),
      ).toEqual([{ kind: "edited", channelId: "OUT1", body: "editado" }]);
      expect(mapUpdate({ key: { remoteJid: JID }, update: { status: Status.READ } })).toEqual([]);
    });
  });

  describe("disappearing chats", () => {
    const EPHEMERAL_SETTING = proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING;

    it("should read a chat's timer from its messages and from a change of the setting", () => {
      // a text in a disappearing chat carries the timer in its context, bare or inside an ephemeralMessage
      expect(expirationOf(incoming({ extendedTextMessage: { text: "hola", contextInfo: { expiration: 604_800 } } }))).toBe(
        604_800,
      );
      expect(
        expirationOf(
          incoming({
            ephemeralMessage: { message: { imageMessage: { mimetype: "image/jpeg", contextInfo: { expiration: 86_400 } } } },
          }),
        ),
      ).toBe(86_400);
      expect(expirationOf(incoming({ protocolMessage: { type: EPHEMERAL_SETTING, ephemeralExpiration: 7_776_000 } }))).toBe(
        7_776_000,
      );
      // off: a setting of 0, or a message of the chat without a timer
      expect(expirationOf(incoming({ protocolMessage: { type: EPHEMERAL_SETTING } }))).toBe(0);
      expect(expirationOf(incoming({ conversation: "hola" }))).toBe(0);
    });

    it("should take nothing from what does not speak for the chat", () => {
      expect(expirationOf(incoming({ reactionMessage: { text: "👍", key: { remoteJid: JID, id: "X" } } }))).toBeUndefined();
      expect(
        expirationOf(incoming({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: "X" } } })),
      ).toBeUndefined();
      expect(
        expirationOf(
          incoming({ senderKeyDistributionMessage: { groupId: "g", axolotlSenderKeyDistributionMessage: bytes("k") } }),
        ),
      ).toBeUndefined();
      expect(
        expirationOf(incoming({}, { message: null, messageStubType: proto.WebMessageInfo.StubType.CALL_MISSED_VOICE })),
      ).toBeUndefined();
    });
  });

  it("should classify without I/O and name extensions", () => {
    expect(describeMessage(incoming({ conversation: "x" }))).toEqual({ kind: "content", body: "x", mediaType: "chat" });
    expect(extensionFor("audio/ogg; codecs=opus")).toBe("ogg");
    expect(extensionFor("application/vnd.ms-excel")).toBe("bin");
    expect(extensionFor("application/zip")).toBe("zip");
  });
});
