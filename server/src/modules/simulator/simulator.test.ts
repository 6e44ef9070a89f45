import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages, tickets } from "../../db/schema/index.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { buildCompany, buildMessage, buildUser, buildWhatsapp, login } from "../../test/factories.js";
import { caller, expectError, uid } from "../../test/http.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const call = caller(() => t.app);
const number = () => `5215${Math.floor(Math.random() * 1e9)}`.padEnd(13, "3");

async function setup() {
  const c = await buildCompany(t.app);
  const wa = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED" });
  return { c, wa, s: await login(t.app, c.admin) };
}

describe("#simulator", () => {
  it("should require authentication, an admin, and the company's own simulator connection", async () => {
    const { c, wa } = await setup();
    expectError(
      await t.app.inject({ method: "POST", url: `/api/v1/simulator/${wa.id}/inbound`, payload: {} }),
      401,
      "ERR_SESSION_EXPIRED",
    );
    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    expectError(await call(agent, "POST", `/simulator/${wa.id}/inbound`, { number: number() }), 403, "ERR_NO_PERMISSION");
    const other = await setup();
    expectError(await call(other.s, "POST", `/simulator/${wa.id}/inbound`, { number: number() }), 404, "ERR_NO_WAPP_FOUND");
    expectError(await call(other.s, "GET", `/simulator/${wa.id}/outbound?number=1`), 404, "ERR_NO_WAPP_FOUND");
    const beta = await buildWhatsapp(t.app, c.id, { provider: "beta" });
    const s = await login(t.app, c.admin);
    expectError(await call(s, "POST", `/simulator/${beta.id}/inbound`, { number: number() }), 400, "ERR_WAPP_NOT_SIMULATOR");
  });

  it("turns a customer's text into a pending ticket, and a replay of the same id into nothing", async () => {
    const { s, wa } = await setup();
    const n = number();
    const id = `sim-${uid()}`;
    const res = await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: `+${n}`, name: "Paula", body: "Hola", id });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ channelId: id, stored: true });
    const [ticket] = await t.app.charla.db.select().from(tickets).where(eq(tickets.id, res.json().ticketId));
    expect(ticket).toMatchObject({ status: "pending", unreadMessages: 1, lastMessage: "Hola" });
    const replay = await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: n, body: "Hola", id });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().stored).toBe(false);
  });

  it("shapes locations, contact cards and media like a phone delivers them", async () => {
    const { c, s, wa } = await setup();
    const n = number();
    const post = (body: object) => call(s, "POST", `/simulator/${wa.id}/inbound`, { number: n, ...body });
    const loc = (await post({ location: { latitude: 19.43, longitude: -99.13, description: "Zócalo" } })).json();
    const card = (await post({ vcard: { name: "Juan Pérez", number: "+52 55 1234 5678" } })).json();
    const img = (
      await post({
        mediaBase64: Buffer.from([0xff, 0xd8, 0xff, 9]).toString("base64"),
        mimetype: "image/jpeg",
        fileName: "a.jpg",
      })
    ).json();
    const row = async (id: number) => (await t.app.charla.db.select().from(messages).where(eq(messages.id, id)))[0];
    expect(await row(loc.messageId)).toMatchObject({
      mediaType: "locationMessage",
      body: "|https://maps.google.com/maps?q=19.43%2C-99.13&z=17|Zócalo",
    });
    const vcard = await row(card.messageId);
    expect(vcard.mediaType).toBe("vcard");
    expect(vcard.body).toContain("FN:Juan Pérez");
    expect(vcard.body).toContain("waid=525512345678");
    const image = await row(img.messageId);
    expect(image.mediaType).toBe("image");
    expect(await t.app.charla.storage.read(c.id, image.mediaPath as string)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 9]));
  });

  it("lists what agents sent to a number, with acks, and nothing for an unknown number", async () => {
    const { s, wa } = await setup();
    const n = number();
    const { ticketId } = (await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: n, body: "Hola" })).json();
    await t.app.charla.db.insert(messages).values({
      companyId: s.companyId,
      ticketId,
      whatsappId: wa.id,
      channelId: `out-${uid()}`,
      body: "¡Buenos días!",
      fromMe: true,
      ack: 3,
    });
    const out = await call(s, "GET", `/simulator/${wa.id}/outbound?number=${n}`);
    expect(out.json()).toEqual([expect.objectContaining({ body: "¡Buenos días!", ack: 3, ackError: null, mediaUrl: null })]);
    expect((await call(s, "GET", `/simulator/${wa.id}/outbound?number=5215500000000`)).json()).toEqual([]);
  });

  it("keeps the phone's conversation, both directions, per connection and number", async () => {
    const { c, s, wa } = await setup();
    const n = number();
    const first = (await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: n, body: "*Hola*, soy yo" })).json();
    const ticket = (await t.app.charla.db.select().from(tickets).where(eq(tickets.id, first.ticketId)))[0];
    const answer = await buildMessage(t.app, ticket, { body: "¡Hola! ~ayer~ no", fromMe: true, ack: 3 });
    const gone = await buildMessage(t.app, ticket, { body: "precio secreto", fromMe: true, ack: 4, isDeleted: true });
    await call(s, "POST", `/simulator/${wa.id}/inbound`, {
      number: n,
      body: "foto",
      mediaBase64: Buffer.from([0xff, 0xd8, 0xff, 9]).toString("base64"),
      mimetype: "image/jpeg",
      fileName: "a.jpg",
    });
    const thread = (await call(s, "GET", `/simulator/${wa.id}/messages?number=%2B${n}`)).json();
    expect(thread.map((m: { side: string; body: string }) => `${m.side}:${m.body}`)).toEqual([
      "customer:*Hola*, soy yo",
      "agent:¡Hola! ~ayer~ no",
      // what was deleted for everyone is gone from the phone too; only the fact remains
      "agent:",
      "customer:foto",
    ]);
    expect(thread[1]).toMatchObject({ id: answer.id, ack: 3, ackError: null, isDeleted: false });
    expect(thread[2]).toMatchObject({ id: gone.id, isDeleted: true, mediaUrl: null });
    expect(thread[3].mediaUrl).toMatch(/^\/api\/v1\/messages\/\d+\/media$/);
    // another number, another connection of the company and another company see none of it
    expect((await call(s, "GET", `/simulator/${wa.id}/messages?number=5215500000000`)).json()).toEqual([]);
    const second = await buildWhatsapp(t.app, c.id, { provider: "simulator", status: "CONNECTED" });
    expect((await call(s, "GET", `/simulator/${second.id}/messages?number=${n}`)).json()).toEqual([]);
    const other = await setup();
    expectError(await call(other.s, "GET", `/simulator/${wa.id}/messages?number=${n}`), 404, "ERR_NO_WAPP_FOUND");
  });

  it("reads what agents sent when the customer does: read receipts, only for the company's own connection", async () => {
    const { c, s, wa } = await setup();
    const n = number();
    const { ticketId } = (await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: n, body: "Hola" })).json();
    const ticket = (await t.app.charla.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0];
    const delivered = await buildMessage(t.app, ticket, { fromMe: true, ack: 3 });
    const server = await buildMessage(t.app, ticket, { fromMe: true, ack: 2 });
    const failed = await buildMessage(t.app, ticket, { fromMe: true, ack: -1, ackError: "ERR_SENDING_WAPP_MSG" });
    const played = await buildMessage(t.app, ticket, { fromMe: true, ack: 5 });
    const theirs = await buildMessage(t.app, ticket, { fromMe: false, ack: 0 });

    const agent = await login(t.app, await buildUser(t.app, c.id, { profile: "user" }));
    expectError(await call(agent, "POST", `/simulator/${wa.id}/read`, { number: n }), 403, "ERR_NO_PERMISSION");
    const other = await setup();
    expectError(await call(other.s, "POST", `/simulator/${wa.id}/read`, { number: n }), 404, "ERR_NO_WAPP_FOUND");
    const invalid = await call(s, "POST", `/simulator/${wa.id}/read`, { number: "abc" });
    expectError(invalid, 400, "ERR_VALIDATION");
    expect(invalid.json().issues[0].path).toBe("body.number");
    expectError(await call(s, "POST", `/simulator/${wa.id}/read`, {}), 400, "ERR_VALIDATION");
    const beta = await buildWhatsapp(t.app, c.id, { provider: "beta" });
    expectError(await call(s, "POST", `/simulator/${beta.id}/read`, { number: n }), 400, "ERR_WAPP_NOT_SIMULATOR");

    const res = await call(s, "POST", `/simulator/${wa.id}/read`, { number: `+${n}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ read: 2 });
    const ackOf = async (id: number) => (await t.app.charla.db.select().from(messages).where(eq(messages.id, id)))[0].ack;
    expect(await ackOf(delivered.id)).toBe(4);
    expect(await ackOf(server.id)).toBe(4);
    // a failed message never reached the phone; played stays played; the customer's own have no ack
    expect(await ackOf(failed.id)).toBe(-1);
    expect(await ackOf(played.id)).toBe(5);
    expect(await ackOf(theirs.id)).toBe(0);
    // nothing left to read, and a number the phone never wrote to
    expect((await call(s, "POST", `/simulator/${wa.id}/read`, { number: n })).json()).toEqual({ read: 0 });
    expect((await call(s, "POST", `/simulator/${wa.id}/read`, { number: "5215500000000" })).json()).toEqual({ read: 0 });
  });

  it("validates the number", async () => {
    const { s, wa } = await setup();
    const res = await call(s, "POST", `/simulator/${wa.id}/inbound`, { number: "abc" });
    expectError(res, 400, "ERR_VALIDATION");
    expect(res.json().issues[0].path).toBe("body.number");
  });
});
