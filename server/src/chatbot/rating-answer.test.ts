import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { messages, tickets, ticketTracking, userRatings } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { type BotCompany, botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { buildContact, buildTicket, buildUser } from "../test/factories.js";
import { clock } from "./clock.js";
import { ratingQuestion } from "./rating-question.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  clock.now = () => new Date();
});
const db = () => t.app.charla.db;

/**
 * A ticket an agent resolved a moment ago and asked to rate, as the tickets module leaves it: closed,
 * its episode finished (so the 2-hour reopening window applies), awaiting the rating, asked once.
 */
async function resolvedAndAsked(w: BotCompany, number: string, extra: Partial<typeof tickets.$inferInsert> = {}) {
  const agent = await buildUser(t.app, w.companyId, { name: "Marta Gómez" });
  const queue = await linkQueue(t, w, { name: "Ventas", greetingMessage: "Bienvenida a {{queue}}, {{firstName}}" });
  const contact = await buildContact(t.app, w.companyId, { number, name: "Ana María" });
  const ticket = await buildTicket(t.app, w.companyId, {
    contactId: contact.id,
    whatsappId: w.whatsappId,
    queueId: queue.id,
    userId: agent.id,
    status: "closed",
    awaitingRating: true,
    ratingAsks: 1,
    ...extra,
  });
  await db()
    .update(ticketTracking)
    .set({ startedAt: new Date(Date.now() - 60_000), finishedAt: new Date(), userId: agent.id })
    .where(eq(ticketTracking.ticketId, ticket.id));
  return { agent, queue, ticket };
}

const rowOf = async (id: number) => (await db().select().from(tickets).where(eq(tickets.id, id)))[0];
const inboundOn = async (ticketId: number) =>
  (
    await db()
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false)))
  ).map((m) => m.body);

describe("chatbot: rating answer", () => {
  it("stores 1–3 for the ticket and its agent, sends the completion, and never reopens the ticket", async () => {
    const w = await botCompany(t, {
      greetingMessage: "Hola de nuevo",
      complationMessage: "Gracias {{firstName}}, {{user}} le atendió. Protocolo {{protocol}}",
    });
    const ana = phone(t, w);
    const { agent, queue, ticket } = await resolvedAndAsked(w, ana.number);
    clock.now = () => new Date("2024-05-06T15:00:00Z");
    const to = await ana.say(" 3 ");
    expect(to).toBe(ticket.id);
    expect(await ana.replies()).toEqual([`Gracias Ana, Marta Gómez le atendió. Protocolo 20240506${ticket.id}`]);
    expect(await rowOf(ticket.id)).toMatchObject({
      status: "closed",
      awaitingRating: false,
      userId: agent.id,
      unreadMessages: 0,
    });
    expect(await ana.tickets()).toHaveLength(1);
    expect(await inboundOn(ticket.id)).toEqual([" 3 "]);
    const ratings = await db().select().from(userRatings).where(eq(userRatings.ticketId, ticket.id));
    expect(ratings).toMatchObject([{ companyId: w.companyId, userId: agent.id, rate: 3 }]);
    const [episode] = await db().select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticket.id));
    expect(episode).toMatchObject({ rated: true, ratingAt: new Date("2024-05-06T15:00:00Z") });

    // the rating is done: the next message is a conversation again (reopened within the 2 hours, the bot
    // routes it to the connection's only queue)
    await ana.say("otra pregunta");
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", userId: null, queueId: queue.id });
    expect(await ana.replies()).toEqual(["Bienvenida a Ventas, Ana"]);
  });

  it("asks once more on another answer, then gives up: the message starts a new conversation", async () => {
    const w = await botCompany(t, { greetingMessage: "Hola {{firstName}}", ratingMessage: "¿Cómo le atendió {{user}}?" });
    const ana = phone(t, w);
    const { ticket } = await resolvedAndAsked(w, ana.number);
    const question = ratingQuestion("¿Cómo le atendió {{user}}?", { user: "Marta Gómez" });
    expect(question).toBe("¿Cómo le atendió Marta Gómez?\n\n1 - Insatisfecho\n2 - Satisfecho\n3 - Muy satisfecho");

    expect(await ana.say("excelente")).toBe(ticket.id);
    expect(await ana.replies()).toEqual([question]);
    expect(await rowOf(ticket.id)).toMatchObject({ status: "closed", awaitingRating: true, ratingAsks: 2 });

    const next = await ana.say("5 estrellas");
    expect(next).not.toBe(ticket.id);
    expect(await rowOf(ticket.id)).toMatchObject({ status: "closed", awaitingRating: false });
    expect(await rowOf(next)).toMatchObject({ status: "pending", userId: null });
    expect(await inboundOn(ticket.id)).toEqual(["excelente"]);
    expect(await inboundOn(next)).toEqual(["5 estrellas"]);
    // the new conversation gets the bot: routed to the connection's only queue
    expect(await ana.replies()).toEqual(["Bienvenida a Ventas, Ana"]);
    expect(await db().select().from(userRatings).where(eq(userRatings.ticketId, ticket.id))).toEqual([]);
  });

  it("an empty rating message still asks with the default text and the scale", () => {
    expect(ratingQuestion("", {})).toBe(
      "Por favor, califique nuestra atención respondiendo con un número:\n\n1 - Insatisfecho\n2 - Satisfecho\n3 - Muy satisfecho",
    );
  });

  it("is answered first even when the contact has a live ticket on the connection (the one-statement path steps aside)", async () => {
    const w = await botCompany(t);
    const ana = phone(t, w);
    const { ticket, agent } = await resolvedAndAsked(w, ana.number);
    const live = await buildTicket(t.app, w.companyId, {
      contactId: ticket.contactId,
      whatsappId: w.whatsappId,
      status: "open",
      userId: agent.id,
    });
    expect(await ana.say("1")).toBe(ticket.id);
    expect(await db().select().from(userRatings).where(eq(userRatings.ticketId, ticket.id))).toMatchObject([{ rate: 1 }]);
    // then the live ticket takes the messages again
    expect(await ana.say("hola")).toBe(live.id);
    expect(await rowOf(live.id)).toMatchObject({ status: "open", unreadMessages: 1 });
  });

  it("a message the company sends from its phone does not answer the rating", async () => {
    const w = await botCompany(t);
    const ana = phone(t, w);
    const { ticket } = await resolvedAndAsked(w, ana.number);
    await ana.deliver({ body: "2", fromMe: true });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "closed", awaitingRating: true, ratingAsks: 1 });
    expect(await db().select().from(userRatings).where(eq(userRatings.ticketId, ticket.id))).toEqual([]);
  });
});
