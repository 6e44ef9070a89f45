import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTicket, loadWorld } from "../chatbot/state.js";
import { scoped } from "../db/scoped.js";
import { jobs, messages, queueIntegrations, ticketNotes, tickets, typebotSessions, whatsapps } from "../db/schema/index.js";
import { type TestApp, getTestApp } from "../test/app.js";
import { AUTOMATION_PLAN, botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { choiceInput, fakeTypebot, imageBubble, textBubble, textInput } from "../test/fake-typebot.js";
import { uid } from "../test/http.js";
import { automationOf } from "./resolve.js";
import { runTypebotTurn } from "./typebot.js";
import { bubbleText, inputText, markdownToWhatsApp, replyTexts, richTextToWhatsApp } from "./typebot-messages.js";

let t: TestApp;
let bot: Awaited<ReturnType<typeof fakeTypebot>>;
beforeAll(async () => {
  t = await getTestApp();
  bot = await fakeTypebot(() => ({ body: { messages: [] } }));
});
afterAll(async () => {
  await bot.close();
  await t.close();
});

/** Polls until `read` gives what `ok` accepts (no fixed sleeps). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

type Options = Partial<typeof queueIntegrations.$inferInsert>;

/**
 * A company whose area "Typebot" points at a typebot integration on the fake, a customer's ticket in
 * that area, and `say`: the customer's message stored without the live bot hearing it, then the
 * typebot's turn on it run here (the hook in the bot's flow is another helper's).
 */
async function typebotArea(opts: Options = {}) {
  const s = t.app.charla;
  const w = await botCompany(t, { greetingMessage: "Hola" }, AUTOMATION_PLAN);
  const [integration] = await s.db
    .insert(queueIntegrations)
    .values({
      companyId: w.companyId,
      type: "typebot",
      name: `Bot ${uid()}`,
      urlN8N: bot.url,
      typebotSlug: "ventas-bot",
      typebotKeywordFinish: "Salir",
      typebotUnknownMessage: "No entendí, elige una opción",
      typebotDelayMessage: 0,
      ...opts,
    })
    .returning();
  const queue = await linkQueue(t, w, { name: "Typebot", integrationId: integration.id });
  const ana = phone(t, w);
  let ticketId = 0;
  /** The customer's message, stored; returns its id. */
  const store = async (body: string) => {
    const bus = s.events;
    const publish = bus.publish;
    bus.publish = (e) => {
      if (e.type !== "message.received") publish.call(bus, e);
    };
    try {
      ticketId = await ana.say(body);
    } finally {
      bus.publish = publish;
    }
    // the ticket stands in the typebot's area (as the bot's queue choice leaves it)
    await s.db
      .update(tickets)
      .set({ queueId: queue.id })
      .where(and(eq(tickets.id, ticketId), isNull(tickets.queueId)));
    const [row] = await s.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false)))
      .orderBy(asc(messages.id))
      .then((rows) => rows.slice(-1));
    return row.id;
  };
  const turn = async (messageId: number, body: string, services = s) => {
    const q = scoped(services.db, w.companyId);
    const loaded = await loadTicket(q, ticketId, messageId);
    const world = loaded && loadWorld(services, q, loaded);
    if (!world) throw new Error("the bot's world");
    const auto = await automationOf(q, world.ticket);
    if (auto?.kind !== "typebot") throw new Error(`expected the typebot, got ${auto?.kind ?? "nothing"}`);
    await runTypebotTurn(world, auto, body);
  };
  const say = async (body: string, services = s) => {
    const id = await store(body);
    await turn(id, body, services);
    return id;
  };
  const session = async () =>
    (await s.db.select().from(typebotSessions).where(eq(typebotSessions.ticketId, ticketId)))[0] ?? null;
  const notes = async () => s.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId));
  return { s, w, integration, queue, ana, say, store, turn, session, notes, ticket: () => ana.ticket() };
}

describe("typebot: rendering its messages", () => {
  it("flattens rich text with bold and italic, keeps links, and reads the markdown form", () => {
    expect(
      richTextToWhatsApp([
        {
          type: "p",
          children: [{ text: "Hola " }, { text: "Ana", bold: true }, { text: ", ¿qué tal? " }, { text: "ya", italic: true }],
        },
        { type: "p", children: [{ text: "Mira " }, { type: "a", url: "https://x.test/p", children: [{ text: "esto" }] }] },
      ]),
    ).toBe("Hola *Ana*, ¿qué tal? _ya_\nMira esto (https://x.test/p)");
    expect(markdownToWhatsApp("**Hola** *tú*, ver [aquí](https://x.test)")).toBe("*Hola* _tú_, ver aquí (https://x.test)");
    expect(bubbleText({ type: "text", content: { type: "markdown", markdown: "**Sí**" } })).toBe("*Sí*");
    expect(bubbleText(imageBubble("https://img.test/a.png"))).toBe("https://img.test/a.png");
    expect(bubbleText({ type: "video", content: { url: "https://v.test/v.mp4", type: "url" } })).toBe("https://v.test/v.mp4");
    expect(inputText(choiceInput("Ventas", "Soporte"))).toBe("*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte");
    expect(inputText(textInput())).toBe("");
    expect(replyTexts({ messages: [textBubble("a"), { type: "unknown" }], input: choiceInput("x") })).toEqual([
      "a",
      "*[ 1 ]* - x",
    ]);
  });
});

describe("typebot: a conversation through its chat API", () => {
  it("starts with the slug and the customer's message, continues the session, renders text, image and choice", async () => {
    const a = await typebotArea();
    bot.answer = (call) =>
      call.kind === "start"
        ? {
            body: {
              messages: [textBubble("¡Hola! Soy el bot"), imageBubble("https://img.test/logo.png")],
              input: choiceInput("Precios", "Horarios"),
            },
          }
        : { body: { messages: [textBubble([{ text: "Precios", bold: true }, { text: ": desde 10" }])], input: textInput() } };
    const before = bot.calls.length;
    await a.say("Hola");
    expect(bot.calls.slice(before)).toEqual([{ kind: "start", slug: "ventas-bot", text: "Hola" }]);
    expect(await a.ana.replies()).toEqual([
      "¡Hola! Soy el bot",
      "https://img.test/logo.png",
      "*[ 1 ]* - Precios\n*[ 2 ]* - Horarios",
    ]);
    // the first turn takes the ticket: the typebot holds it until it hands over
    expect(await a.ticket()).toMatchObject({ useIntegration: true, integrationId: a.integration.id, promptId: null });
    const first = await a.session();
    expect(first).toMatchObject({ integrationId: a.integration.id, companyId: a.w.companyId });
    const sessionId = first?.sessionId;

    // the customer's reply (a number) is passed on as given, in the same session
    await a.say("1");
    expect(bot.calls.slice(before + 1)).toEqual([{ kind: "continue", sessionId, text: "1" }]);
    expect(await a.ana.replies()).toEqual(["*Precios*: desde 10"]);
    expect((await a.session())?.sessionId).toBe(sessionId);
  });

  it("spaces its messages by the integration's delay: the first at once, each next one due later", async () => {
    const a = await typebotArea({ typebotDelayMessage: 1500 });
    bot.answer = () => ({ body: { messages: [textBubble("uno"), textBubble("dos"), textBubble("tres")], input: textInput() } });
    await a.say("Hola");
    const rows = await a.s.db
      .select()
      .from(messages)
      .where(and(eq(messages.contactId, await a.ana.contactId()), eq(messages.fromMe, true)))
      .orderBy(asc(messages.id));
    expect(rows.map((r) => r.body)).toEqual(["uno", "dos", "tres"]);
    const gaps = rows.slice(1).map((r, i) => r.createdAt.getTime() - rows[i].createdAt.getTime());
    expect(gaps).toEqual([1500, 1500]);
    // each later text has its own delivery job, due at its time
    const due = await a.s.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.companyId, a.w.companyId), eq(jobs.kind, "message.deliver")))
      .orderBy(asc(jobs.id));
    const later = due.filter((j) => {
      const ids = (j.payload as { messageIds: number[] }).messageIds;
      return ids.includes(rows[1].id) || ids.includes(rows[2].id);
    });
    expect(later.map((j) => j.runAfter.getTime())).toEqual([rows[1].createdAt.getTime(), rows[2].createdAt.getTime()]);
    // and they do go out, in order, once due
    const sent = await until(
      () => a.s.db.select().from(messages).where(eq(messages.id, rows[2].id)),
      ([m]) => m.ack > 0,
    );
    expect(sent[0].ack).toBeGreaterThan(0);
    const [second] = await a.s.db.select().from(messages).where(eq(messages.id, rows[1].id));
    expect(second.ack).toBeGreaterThan(0);
  });

  it("a customer quicker than its spaced texts: the next answer is dated after them, never overtaking them", async () => {
    const a = await typebotArea({ typebotDelayMessage: 60_000 });
    bot.answer = (call) =>
      call.kind === "start"
        ? { body: { messages: [textBubble("uno"), textBubble("dos")], input: textInput() } }
        : { body: { messages: [textBubble("tres")], input: textInput() } };
    await a.say("Hola");
    // answered while "dos" is still a minute away
    await a.say("ya");
    const rows = await a.s.db
      .select()
      .from(messages)
      .where(and(eq(messages.contactId, await a.ana.contactId()), eq(messages.fromMe, true)))
      .orderBy(asc(messages.createdAt));
    expect(rows.map((r) => r.body)).toEqual(["uno", "dos", "tres"]);
    expect(rows[2].createdAt.getTime() - rows[1].createdAt.getTime()).toBe(60_000);
    const [job] = await a.s.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.companyId, a.w.companyId), eq(jobs.kind, "message.deliver")))
      .then((all) => all.filter((j) => (j.payload as { messageIds: number[] }).messageIds.includes(rows[2].id)));
    expect(job.runAfter.getTime()).toBe(rows[2].createdAt.getTime());
  });

  it("the finish keyword, in any case or accents, hands the ticket back to the area without asking Typebot", async () => {
    const a = await typebotArea({ typebotKeywordFinish: "Adiós" });
    bot.answer = () => ({ body: { messages: [textBubble("Hola")], input: textInput() } });
    await a.say("Hola");
    expect(await a.session()).not.toBeNull();
    const before = bot.calls.length;
    await a.say("  ADIOS ");
    expect(bot.calls.length).toBe(before);
    expect(await a.session()).toBeNull();
    expect(await a.ticket()).toMatchObject({
      useIntegration: false,
      chatbot: false,
      queueId: a.queue.id,
      automationDone: [`queue:${a.queue.id}`],
    });
    // the area's typebot does not take the ticket again
    expect(await automationOf(scoped(a.s.db, a.w.companyId), await a.ticket())).toBeNull();
  });

  it("a conversation Typebot ends (no input expected) sends its last words and hands the ticket back", async () => {
    const a = await typebotArea();
    bot.answer = (call) =>
      call.kind === "start"
        ? { body: { messages: [textBubble("¿Tu nombre?")], input: textInput() } }
        : { body: { messages: [textBubble("Gracias, te atiende un agente")] } };
    await a.say("Hola");
    await a.say("Ana");
    expect(await a.ana.replies()).toEqual(["¿Tu nombre?", "Gracias, te atiende un agente"]);
    expect(await a.session()).toBeNull();
    expect(await a.ticket()).toMatchObject({ useIntegration: false, automationDone: [`queue:${a.queue.id}`] });
  });

  it("an expired session starts a new conversation; a session of 0 minutes never expires", async () => {
    const a = await typebotArea({ typebotExpires: 1 });
    bot.answer = () => ({ body: { messages: [textBubble("hola")], input: textInput() } });
    await a.say("Hola");
    const first = await a.session();
    // two minutes of silence
    await a.s.db
      .update(typebotSessions)
      .set({ lastAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(typebotSessions.ticketId, (await a.ticket()).id));
    const before = bot.calls.length;
    await a.say("Otra vez");
    expect(bot.calls.slice(before)).toEqual([{ kind: "start", slug: "ventas-bot", text: "Otra vez" }]);
    expect((await a.session())?.sessionId).not.toBe(first?.sessionId);

    const never = await typebotArea({ typebotExpires: 0 });
    await never.say("Hola");
    const kept = await never.session();
    await never.s.db
      .update(typebotSessions)
      .set({ lastAt: new Date(Date.now() - 24 * 60 * 60_000) })
      .where(eq(typebotSessions.ticketId, (await never.ticket()).id));
    const mark = bot.calls.length;
    await never.say("sigo");
    expect(bot.calls.slice(mark)).toEqual([{ kind: "continue", sessionId: kept?.sessionId, text: "sigo" }]);
  });

  it("a reply Typebot refuses (400) gets the unknown-message text and the same session stands", async () => {
    const a = await typebotArea();
    bot.answer = (call) =>
      call.kind === "start"
        ? { body: { messages: [textBubble("Elige")], input: choiceInput("A", "B") } }
        : { status: 400, body: { message: "Invalid reply", code: "BAD_REQUEST" } };
    await a.say("Hola");
    const kept = await a.session();
    await a.say("zzz");
    expect(await a.ana.replies()).toEqual(["Elige", "*[ 1 ]* - A\n*[ 2 ]* - B", "No entendí, elige una opción"]);
    expect((await a.session())?.sessionId).toBe(kept?.sessionId);
    expect(await a.ticket()).toMatchObject({ useIntegration: true });
  });

  it("a Typebot that fails or does not answer in time leaves the ticket with humans and an internal note", async () => {
    const a = await typebotArea();
    bot.answer = () => ({ status: 502, body: { message: "bad gateway" } });
    await a.say("Hola");
    expect(await a.ana.replies()).toEqual([]);
    expect(await a.ticket()).toMatchObject({ useIntegration: false, chatbot: false, automationDone: [`queue:${a.queue.id}`] });
    const notes = await a.notes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ userId: null });
    expect(notes[0].note).toContain(a.integration.name);
    expect(await a.session()).toBeNull();

    // time-out: the AI time-out bounds the wait
    const slow = await typebotArea();
    bot.answer = () => ({ hang: true });
    const s = slow.s;
    const quick = { ...s, config: { ...s.config, aiTimeoutMs: 1000 } };
    const started = Date.now();
    await slow.say("Hola", quick);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await slow.ticket()).toMatchObject({ useIntegration: false, chatbot: false });
    expect((await slow.notes())[0]?.note).toContain("timed out");

    // an address the server may not call (private networks refused): not called, humans and a note
    const closed = await typebotArea();
    const mark = bot.calls.length;
    await closed.say("Hola", { ...s, config: { ...s.config, integrationsAllowPrivate: false } });
    expect(bot.calls.length).toBe(mark);
    expect(await closed.ticket()).toMatchObject({ useIntegration: false, chatbot: false });
    expect((await closed.notes())[0]?.note).toContain("address not allowed");
  });

  it("a turn run twice answers once and asks Typebot once", async () => {
    const a = await typebotArea();
    bot.answer = () => ({ body: { messages: [textBubble("una vez")], input: textInput() } });
    const id = await a.store("Hola");
    const before = bot.calls.length;
    await a.turn(id, "Hola");
    await a.turn(id, "Hola");
    expect(bot.calls.length - before).toBe(1);
    expect(await a.ana.replies()).toEqual(["una vez"]);
    // two at once: one answer
    const again = await typebotArea();
    const id2 = await again.store("Hola");
    await Promise.all([again.turn(id2, "Hola"), again.turn(id2, "Hola")]);
    expect(await again.ana.replies()).toEqual(["una vez"]);
  });
});

describe("typebot: the scope it hands back", () => {
  it("a ticket done with its connection's typebot, then held by its area's, records the area's when that one ends", async () => {
    const a = await typebotArea();
    const s = a.s;
    // the connection has a typebot of its own, which the ticket already finished with
    const [connBot] = await s.db
      .insert(queueIntegrations)
      .values({ companyId: a.w.companyId, type: "typebot", name: `Conn ${uid()}`, urlN8N: bot.url, typebotSlug: "conn" })
      .returning();
    await s.db.update(whatsapps).set({ integrationId: connBot.id }).where(eq(whatsapps.id, a.w.whatsappId));
    bot.answer = (call) =>
      call.kind === "start"
        ? { body: { messages: [textBubble("Área")], input: textInput() } }
        : { body: { messages: [textBubble("Fin")] } };
    await a.say("Hola");
    const ticket = await a.ticket();
    await s.db
      .update(tickets)
      .set({ automationDone: [`connection:${a.w.whatsappId}`] })
      .where(eq(tickets.id, ticket.id));
    // the area's typebot holds the ticket now (taken on the first message); its conversation ends
    expect(await a.ticket()).toMatchObject({ useIntegration: true, integrationId: a.integration.id });
    await a.say("listo");
    expect(await a.ticket()).toMatchObject({
      useIntegration: false,
      automationDone: [`connection:${a.w.whatsappId}`, `queue:${a.queue.id}`],
    });
    expect(await automationOf(scoped(s.db, a.w.companyId), await a.ticket())).toBeNull();
  });
});
