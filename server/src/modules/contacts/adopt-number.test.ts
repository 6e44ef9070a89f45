import { Events } from "@charla/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { handleInbound } from "../../pipeline/inbound.js";
import { type TestApp, getTestApp } from "../../test/app.js";
import { uid } from "../../test/http.js";
import { scenario } from "../../test/scenario.js";
import { adoptNumber } from "./adopt-number.js";

let t: TestApp;
const events: { event: string; payload: unknown }[] = [];
beforeAll(async () => {
  t = await getTestApp();
  const realtime = t.app.charla.realtime;
  realtime.toCompany = () => ({ emit: (event: string, payload: unknown) => void events.push({ event, payload }) }) as never;
  realtime.toUsers = () => ({ emit: (event: string, payload: unknown) => void events.push({ event, payload }) }) as never;
});
afterAll(() => t.close());

const db = () => t.app.charla.db;
const lidOf = () => `${Math.floor(Math.random() * 1e14)}`.padEnd(15, "3");

async function world() {
  const w = await scenario(t.app, { connection: { isDefault: false }, login: false });
  const source = { companyId: w.companyId, whatsappId: w.connection.id };
  const say = (number: string, body: string) =>
    handleInbound(t.app.charla, source, {
      channelId: `m-${uid()}`,
      number,
      fromMe: false,
      body,
      mediaType: "chat",
      name: "Lucía",
    });
  const contactOf = async (number: string) =>
    (await db().select().from(contacts).where(eq(contacts.number, number))).find((x) => x.companyId === w.companyId);
  return { ...w, say, contactOf };
}

describe("a contact first known by its WhatsApp LID", () => {
  it("takes its number when WhatsApp tells it, keeping its ticket and messages", async () => {
    const w = await world();
    const lid = `${lidOf()}@lid`;
    await w.say(lid, "hola, escribo desde un LID");
    const before = await w.contactOf(lid);
    expect(before).toBeDefined();
    const number = `5215${uid().replace(/\D/g, "").padEnd(9, "1").slice(0, 9)}`;
    await adoptNumber(t.app.charla, w.companyId, lid, number);
    const after = await w.contactOf(number);
    expect(after?.id).toBe(before?.id);
    expect(await w.contactOf(lid)).toBeUndefined();
    // the next message from the number lands in the same contact and live ticket: no second conversation
    await w.say(number, "ya con número");
    const all = await db()
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, before?.id ?? -1));
    expect(all).toHaveLength(1);
    expect(all[0].unreadMessages).toBe(2);
    expect(events).toContainEqual({
      event: Events.contact(w.companyId),
      payload: { action: "update", contact: expect.objectContaining({ id: before?.id, number }) },
    });
  });

  it("joins the contact that already has the number: one contact, one live ticket, every message", async () => {
    const w = await world();
    const lid = `${lidOf()}@lid`;
    const number = `5216${uid().replace(/\D/g, "").padEnd(9, "2").slice(0, 9)}`;
    await w.say(number, "desde el número");
    await w.say(lid, "desde el LID");
    await w.say(lid, "otra vez desde el LID");
    const byNumber = await w.contactOf(number);
    const byLid = await w.contactOf(lid);
    const [lidTicket] = await db()
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, byLid?.id ?? -1));
    await adoptNumber(t.app.charla, w.companyId, lid, number);
    expect(await w.contactOf(lid)).toBeUndefined();
    const live = await db()
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, byNumber?.id ?? -1));
    expect(live).toHaveLength(1);
    expect(live[0].unreadMessages).toBe(3);
    const bodies = (await db().select().from(messages).where(eq(messages.ticketId, live[0].id))).map((m) => m.body).sort();
    expect(bodies).toEqual(["desde el LID", "desde el número", "otra vez desde el LID"]);
    expect(
      (await db().select().from(messages).where(eq(messages.ticketId, live[0].id))).every((m) => m.contactId === byNumber?.id),
    ).toBe(true);
    expect(events).toContainEqual({ event: Events.contact(w.companyId), payload: { action: "delete", contactId: byLid?.id } });
    expect(events).toContainEqual({ event: Events.ticket(w.companyId), payload: { action: "delete", ticketId: lidTicket.id } });
    // told twice (a replayed mapping): nothing left to do
    await adoptNumber(t.app.charla, w.companyId, lid, number);
    expect(
      await db()
        .select()
        .from(tickets)
        .where(eq(tickets.contactId, byNumber?.id ?? -1)),
    ).toHaveLength(1);
  });

  it("leaves other companies' contacts with the same address alone", async () => {
    const a = await world();
    const b = await world();
    const lid = `${lidOf()}@lid`;
    await a.say(lid, "hola A");
    await b.say(lid, "hola B");
    await adoptNumber(t.app.charla, a.companyId, lid, "5215512340000");
    expect(await b.contactOf(lid)).toBeDefined();
    expect((await a.contactOf("5215512340000"))?.companyId).toBe(a.companyId);
  });
});
