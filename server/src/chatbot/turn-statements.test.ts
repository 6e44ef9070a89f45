import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Services } from "../context.js";
import { messages, tickets } from "../db/schema/index.js";
import { scoped } from "../db/scoped.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { decide, runChatbot } from "./flow.js";
import { applyStep, loadTicket, loadWorld } from "./state.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const GREETING = "Hola, elija un área:";
const LIST = `${GREETING}\n\n*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte`;

/** A new conversation's first message, stored without the bot hearing it: the turn below is the one measured. */
async function unansweredHello() {
  const s = t.app.charla;
  const w = await botCompany(t, { greetingMessage: GREETING });
  await linkQueue(t, w, { name: "Ventas", orderQueue: 1 });
  await linkQueue(t, w, { name: "Soporte", orderQueue: 2 });
  const ana = phone(t, w);
  const bus = s.events;
  const publish = bus.publish;
  bus.publish = (e) => {
    if (e.type !== "message.received") publish.call(bus, e);
  };
  let ticketId: number;
  try {
    ticketId = await ana.say("hola");
  } finally {
    bus.publish = publish;
  }
  const [received] = await s.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, w.companyId), eq(messages.ticketId, ticketId), eq(messages.fromMe, false)))
    .orderBy(asc(messages.id));
  return { s, w, ana, ticketId, messageId: received.id };
}

type Client = {
  query: (...args: unknown[]) => unknown;
  transaction?: (fn: (tx: Client) => Promise<unknown>) => Promise<unknown>;
};

/**
 * Counts the statements sent while `fn` runs, on either test database: PostgreSQL's every query goes
 * through a pg Client; PGlite's transaction runs its statements on the handle it gives, with BEGIN and COMMIT.
 */
async function countStatements(s: Services, fn: () => Promise<void>): Promise<number> {
  let n = 0;
  const client = (s.db as unknown as { $client: Client }).$client;
  if (!client.transaction) {
    const pg = await import("pg");
    const spy = vi.spyOn(pg.default.Client.prototype, "query");
    try {
      await fn();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }
  const query = client.query;
  const transaction = client.transaction;
  client.query = (...args) => {
    n++;
    return query.apply(client, args);
  };
  client.transaction = (cb) =>
    transaction.call(client, (tx: Client) => {
      n += 2;
      const txQuery = tx.query;
      tx.query = (...args) => {
        n++;
        return txQuery.apply(tx, args);
      };
      return cb(tx);
    });
  try {
    await fn();
    return n;
  } finally {
    client.query = query;
    client.transaction = transaction;
  }
}

describe("chatbot: a turn's statements", () => {
  it("answers a new conversation with the list in 8 statements: one read of ticket and world, the areas, and one transaction", async () => {
    const { s, w, ana, ticketId, messageId } = await unansweredHello();
    // the delivery's job runs after the turn, once measured (its statements: messages/automatic.test.ts)
    const bus = s.events;
    const publish = bus.publish;
    const held: Parameters<typeof publish>[0][] = [];
    bus.publish = (e) => (e.type === "automatic.queued" ? held.push(e) : publish.call(bus, e));
    let statements: number;
    try {
      statements = await countStatements(s, () =>
        runChatbot(s, { companyId: w.companyId, ticketId, messageId, msg: { fromMe: false, isGroup: false, body: "hola" } }),
      );
    } finally {
      bus.publish = publish;
    }
    for (const e of held) publish.call(bus, e);
    // the read (ticket, settings, connection, company, contact), the areas; BEGIN, the guarded update
    // with the turn, the ticket's view and its audience before, the messages with their job, COMMIT
    expect(statements).toBe(8);
    await s.events.idle();
    expect(await ana.replies()).toEqual([LIST]);
    expect(await ana.ticket()).toMatchObject({ botAnsweredMessageId: messageId, botListCount: 1, chatbot: true });
  });

  it("writes nothing when an agent took the ticket between the bot's read and its write", async () => {
    const { s, w, ana, ticketId, messageId } = await unansweredHello();
    const q = scoped(s.db, w.companyId);
    const loaded = await loadTicket(q, ticketId, messageId);
    const world = loaded && loadWorld(s, q, loaded);
    if (!world) throw new Error("the bot's world");
    const step = await decide(world, "hola");
    expect(step.texts).toEqual([LIST]);
    await s.db.update(tickets).set({ userId: w.session.userId, status: "open" }).where(eq(tickets.id, ticketId));
    await applyStep(world, step);
    await s.events.idle();
    expect(await ana.replies()).toEqual([]);
    expect(await ana.ticket()).toMatchObject({ botAnsweredMessageId: null, botListCount: 0 });
  });
});
