import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../context.js";
import { messages } from "../db/schema/index.js";
import { TURN_OWED_AFTER_SEC, TURN_STALE_AFTER_SEC, botTurns, owedTurns, takeOwedTurns } from "../jobs/bot-turns.js";
import { DEFAULT_BATCH_SIZE, SWEEPS } from "../jobs/runner.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { runChatbot } from "./flow.js";

let t: TestApp;
beforeAll(async () => {
  t = await getTestApp();
});
afterAll(() => t.close());

const GREETING = "Hola, elija un área:";
const LIST = `${GREETING}\n\n*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte`;

/** A company whose connection lists two areas: a new conversation's first message gets the list. */
async function twoAreas() {
  const w = await botCompany(t, { greetingMessage: GREETING });
  await linkQueue(t, w, { name: "Ventas", orderQueue: 1 });
  await linkQueue(t, w, { name: "Soporte", orderQueue: 2 });
  return w;
}

/** Messages stored while this runs never reach the bot's live listener: as if the process died after their commit. */
async function turnsLost<T>(s: Services, fn: () => Promise<T>): Promise<T> {
  const bus = s.events;
  const publish = bus.publish;
  bus.publish = (e) => {
    if (e.type !== "message.received") publish.call(bus, e);
  };
  try {
    return await fn();
  } finally {
    bus.publish = publish;
  }
}

const later = (sec: number) => () => new Date(Date.now() + sec * 1000);
/** The sweep's batch for this test's company: other files' tickets share the database (test/app.ts). */
const sweep = (s: Services, companyId: number, now: () => Date) => takeOwedTurns(s, now(), DEFAULT_BATCH_SIZE, { companyId });
const owedOf = (s: Services, companyId: number, now: () => Date) => owedTurns(s, now(), DEFAULT_BATCH_SIZE, { companyId });

async function lastReceived(companyId: number, ticketId: number) {
  const rows = await t.app.charla.db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.ticketId, ticketId), eq(messages.fromMe, false)))
    .orderBy(asc(messages.id));
  return rows[rows.length - 1];
}

describe("chatbot: turns lost with a crash", () => {
  it("is a sweep of every node's runner, its first round at start-up included", () => {
    expect(SWEEPS).toContain(botTurns);
  });

  it("the owed-turn sweep answers a stored message the bot never heard, once, after its margin and before it is stale", async () => {
    const s = t.app.charla;
    const w = await twoAreas();
    const ana = phone(t, w);
    const ticketId = await turnsLost(s, () => ana.say("hola"));
    expect(await ana.replies()).toEqual([]);

    // within the margin the live listener may still be on it; long after, the turn is stale
    expect(await owedOf(s, w.companyId, () => new Date())).toEqual([]);
    expect(await owedOf(s, w.companyId, later(TURN_STALE_AFTER_SEC + 60))).toEqual([]);
    await sweep(s, w.companyId, () => new Date());
    await sweep(s, w.companyId, later(TURN_STALE_AFTER_SEC + 60));
    expect(await ana.replies()).toEqual([]);

    const owedAt = later(TURN_OWED_AFTER_SEC + 1);
    const received = await lastReceived(w.companyId, ticketId);
    expect(await owedOf(s, w.companyId, owedAt)).toEqual([
      { companyId: w.companyId, ticketId, messageId: received.id, body: "hola" },
    ]);
    await sweep(s, w.companyId, owedAt);
    expect(await ana.replies()).toEqual([LIST]);
    expect(await ana.ticket()).toMatchObject({ botAnsweredMessageId: received.id, botListCount: 1, chatbot: true });
    // answered: neither this node nor another finds it again
    expect(await owedOf(s, w.companyId, owedAt)).toEqual([]);
    await sweep(s, w.companyId, owedAt);
    expect(await ana.replies()).toEqual([]);

    // the next answer's turn is lost too: taken once, the area chosen
    await turnsLost(s, () => ana.say("2"));
    expect(await owedOf(s, w.companyId, owedAt)).toHaveLength(1);
    await sweep(s, w.companyId, owedAt);
    expect(await owedOf(s, w.companyId, owedAt)).toEqual([]);
    expect(await ana.ticket()).toMatchObject({ chatbot: false, queueOptionId: null });
    expect((await ana.ticket()).queueId).not.toBeNull();
  });

  it("settles a lost turn the bot has nothing to say to, so it is not taken again", async () => {
    const s = t.app.charla;
    const w = await botCompany(t, { greetingMessage: GREETING });
    const ana = phone(t, w);
    // no area: the greeting once per ticket, then the bot keeps quiet
    await ana.say("hola");
    expect(await ana.replies()).toEqual([GREETING]);
    await turnsLost(s, () => ana.say("¿hola?"));
    const owedAt = later(TURN_OWED_AFTER_SEC + 1);
    expect(await owedOf(s, w.companyId, owedAt)).toHaveLength(1);
    await sweep(s, w.companyId, owedAt);
    expect(await owedOf(s, w.companyId, owedAt)).toEqual([]);
    expect(await ana.replies()).toEqual([]);
  });

  it("answers once when the same message's turn runs several times at once (a live turn and sweeps of two nodes)", async () => {
    const s = t.app.charla;
    const w = await twoAreas();
    const ana = phone(t, w);
    const ticketId = await turnsLost(s, () => ana.say("hola"));
    const received = await lastReceived(w.companyId, ticketId);
    const turn = { companyId: w.companyId, ticketId, messageId: received.id, msg: { fromMe: false, body: "hola" } };
    await Promise.all([runChatbot(s, turn), runChatbot(s, turn), runChatbot(s, turn)]);
    expect(await ana.replies()).toEqual([LIST]);
    expect((await ana.ticket()).botListCount).toBe(1);
    // and once more later (a sweep that read the ticket before the answer committed) changes nothing
    await runChatbot(s, turn);
    expect(await ana.replies()).toEqual([]);
  });
});
