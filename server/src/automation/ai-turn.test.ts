import type { PromptView } from "@charla/contracts";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChatbot } from "../chatbot/flow.js";
import { messages, prompts, queues, ticketNotes, whatsapps } from "../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../test/app.js";
import { botCompany, linkQueue, phone } from "../test/chatbot-kit.js";
import { buildQueue } from "../test/factories.js";
import { type FakeOpenAi, startFakeOpenAi } from "../test/fake-openai.js";
import { caller, uid } from "../test/http.js";
import { TRANSFER_PHRASE } from "./ai-turn.js";

let t: TestApp;
let fake: FakeOpenAi;
const KEY = "sk-turn-0123456789abcdef";
const AI_TIMEOUT_MS = 1500;
beforeAll(async () => {
  t = await getIsolatedTestApp({ aiTimeoutMs: AI_TIMEOUT_MS });
  fake = await startFakeOpenAi({ key: KEY });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
const call = caller(() => t.app);

const PROMPT = "Eres el asistente de una tienda de bicicletas.";
const GREETING = "Bienvenido a Ventas";
const TRANSFER = "Te paso con una persona del equipo";

/**
 * A company whose plan has useOpenAi, its connection with one area "Ventas" answered by a prompt that
 * hands over to "Humanos" (an area of its own), through the fake endpoint.
 */
async function aiCompany(opts: { maxMessages?: number; plan?: boolean; onConnection?: boolean } = {}) {
  const w = await botCompany(t, { transferMessage: TRANSFER }, { plan: { useOpenAi: opts.plan ?? true } });
  const humans = await buildQueue(t.app, w.companyId, { name: `Humanos ${uid()}` });
  const values = {
    name: `Vendedor ${uid()}`,
    prompt: PROMPT,
    model: "gpt-4o-mini",
    apiKey: KEY,
    baseUrl: fake.baseUrl,
    queueId: humans.id,
    maxMessages: opts.maxMessages ?? 10,
    maxTokens: 200,
  };
  let prompt: { id: number };
  if (opts.plan === false) {
    // made while the plan had the flag: the API refuses it now
    expect((await call(w.session, "POST", "/prompt", values)).statusCode).toBe(403);
    const { apiKey, ...rest } = values;
    [prompt] = await t.app.charla.db
      .insert(prompts)
      .values({ ...rest, companyId: w.companyId, apiKeySealed: t.app.charla.secrets.seal(apiKey) })
      .returning();
  } else {
    const res = await call(w.session, "POST", "/prompt", values);
    expect(res.statusCode, res.body).toBe(201);
    prompt = res.json() as PromptView;
  }
  let sales = null;
  if (opts.onConnection) {
    await t.app.charla.db.update(whatsapps).set({ promptId: prompt.id }).where(eq(whatsapps.id, w.whatsappId));
  } else {
    sales = await linkQueue(t, w, { name: "Ventas", greetingMessage: GREETING });
    await t.app.charla.db.update(queues).set({ promptId: prompt.id }).where(eq(queues.id, sales.id));
  }
  return { w, humans, sales, prompt };
}

const notesOf = async (ticketId: number) =>
  (await t.app.charla.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId)).orderBy(asc(ticketNotes.id))).map(
    (n) => n.note,
  );

/** The fake's chat requests from now on. */
const chatsFrom = () => {
  const start = fake.chats().length;
  return () => fake.chats().slice(start);
};

describe("AI prompts: an area's prompt answers", () => {
  it("with the prompt and the last maxMessages messages as context; the reply is an automatic message", async () => {
    const { w, sales, prompt } = await aiCompany({ maxMessages: 4 });
    const ana = phone(t, w);
    const sent = chatsFrom();
    // the one area takes the conversation: its greeting, and its prompt answers in the same turn
    fake.answer({ reply: "¡Hola! ¿Qué bici buscas?" });
    const ticketId = await ana.say("Hola");
    expect(await ana.replies()).toEqual([GREETING, "¡Hola! ¿Qué bici buscas?"]);
    // the model goes on from the greeting sent in its turn
    expect(sent()[0].messages.slice(1)).toEqual([
      { role: "user", content: "Hola" },
      { role: "assistant", content: GREETING },
    ]);
    fake.answer({ reply: "Sí, tenemos tres modelos de montaña." });
    await ana.say("¿Tienen bicis de montaña?");
    expect(await ana.replies()).toEqual(["Sí, tenemos tres modelos de montaña."]);
    const [, first] = sent();
    expect(first).toMatchObject({ model: "gpt-4o-mini", max_tokens: 200, temperature: 1 });
    expect(first.messages[0].role).toBe("system");
    expect(first.messages[0].content).toContain(PROMPT);
    expect(first.messages[0].content).toContain(TRANSFER_PHRASE);
    expect(first.messages.slice(1)).toEqual([
      { role: "user", content: "Hola" },
      { role: "assistant", content: GREETING },
      { role: "assistant", content: "¡Hola! ¿Qué bici buscas?" },
      { role: "user", content: "¿Tienen bicis de montaña?" },
    ]);
    expect(fake.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    expect(await ana.ticket()).toMatchObject({
      id: ticketId,
      queueId: sales?.id,
      useIntegration: true,
      promptId: prompt.id,
      userId: null,
      status: "pending",
    });

    fake.answer({ reply: "Desde 5.000 pesos." });
    await ana.say("¿Y los precios?");
    expect(await ana.replies()).toEqual(["Desde 5.000 pesos."]);
    // the last 4 only, oldest first
    expect(sent()[2].messages.slice(1)).toEqual([
      { role: "assistant", content: "¡Hola! ¿Qué bici buscas?" },
      { role: "user", content: "¿Tienen bicis de montaña?" },
      { role: "assistant", content: "Sí, tenemos tres modelos de montaña." },
      { role: "user", content: "¿Y los precios?" },
    ]);
  });

  it("answers once even when the same message's turn runs twice at once", async () => {
    const { w } = await aiCompany();
    const ana = phone(t, w);
    fake.answer({ reply: "Hola, dime." });
    await ana.say("Hola");
    await ana.replies();
    // the next message stored without the bot hearing it: the two turns below are the ones measured
    const s = t.app.charla;
    const publish = s.events.publish;
    s.events.publish = (e) => {
      if (e.type !== "message.received") publish.call(s.events, e);
    };
    let ticketId: number;
    try {
      ticketId = await ana.say("¿Hacen envíos?");
    } finally {
      s.events.publish = publish;
    }
    const [received] = await s.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false), eq(messages.body, "¿Hacen envíos?")));
    fake.answer({ reply: "Sí, a todo el país." });
    const turn = () =>
      runChatbot(s, {
        companyId: w.companyId,
        ticketId,
        messageId: received.id,
        msg: { fromMe: false, isGroup: false, body: "¿Hacen envíos?" },
      });
    await Promise.all([turn(), turn()]);
    await turn();
    await s.events.idle();
    expect(await ana.replies()).toEqual(["Sí, a todo el país."]);
  });

  it("a connection's prompt answers a ticket that has no area yet", async () => {
    const { w, humans, prompt } = await aiCompany({ onConnection: true });
    const ana = phone(t, w);
    fake.answer({ reply: "¡Hola! ¿Qué bici buscas?" });
    const sent = chatsFrom();
    await ana.say("Hola, buenas");
    expect(await ana.replies()).toEqual(["¡Hola! ¿Qué bici buscas?"]);
    expect(sent()[0].messages.slice(1)).toEqual([{ role: "user", content: "Hola, buenas" }]);
    expect(await ana.ticket()).toMatchObject({ queueId: null, useIntegration: true, promptId: prompt.id });
    // asking for a person: to the prompt's area
    await ana.say("Quiero un asesor");
    expect(await ana.replies()).toEqual([TRANSFER]);
    expect(await ana.ticket()).toMatchObject({ queueId: humans.id, useIntegration: false, chatbot: false });
  });

  it("a plan without useOpenAi: the prompt stays silent and the usual flow answers", async () => {
    const { w } = await aiCompany({ plan: false });
    const ana = phone(t, w);
    const sent = chatsFrom();
    await ana.say("Hola");
    await ana.say("¿Hay bicis?");
    expect(await ana.replies()).toEqual([GREETING]);
    expect(sent()).toEqual([]);
    expect((await ana.ticket()).useIntegration).toBe(false);
  });
});

describe("AI prompts: handing over to the area's humans", () => {
  it("a customer asking for a person: to the prompt's area, the transfer message, a note; the model is not asked", async () => {
    const { w, humans, sales } = await aiCompany();
    const ana = phone(t, w);
    fake.answer({ reply: "Claro, dime." });
    await ana.say("Hola");
    await ana.say("Tengo una duda");
    await ana.replies();
    const sent = chatsFrom();
    const ticketId = await ana.say("Quiero hablar con un humano");
    expect(await ana.replies()).toEqual([TRANSFER]);
    expect(sent()).toEqual([]);
    const ticket = await ana.ticket();
    expect(ticket).toMatchObject({ queueId: humans.id, useIntegration: false, chatbot: false, status: "pending", userId: null });
    // neither the area it came from nor the one it went to lets a prompt stand before the humans again
    expect(ticket.automationDone).toEqual(expect.arrayContaining([`queue:${sales?.id}`, `queue:${humans.id}`]));
    const notes = await notesOf(ticketId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("persona");
    // waiting for humans: nothing more from the bot or the AI
    await ana.say("¿Hola?");
    expect(await ana.replies()).toEqual([]);
    expect(sent()).toEqual([]);
  });

  it("the transfer phrase in the model's reply hands over, and the phrase itself is not sent", async () => {
    const { w, humans } = await aiCompany();
    const ana = phone(t, w);
    fake.answer({ reply: "Hola, dime." });
    await ana.say("Hola");
    await ana.replies();
    fake.answer({ reply: `Entiendo. ${TRANSFER_PHRASE}` });
    const ticketId = await ana.say("Necesito una factura de 2019");
    expect(await ana.replies()).toEqual(["Entiendo.", TRANSFER]);
    expect(await ana.ticket()).toMatchObject({ queueId: humans.id, useIntegration: false });
    expect(await notesOf(ticketId)).toEqual([expect.stringContaining("transfirió")]);
    const all = await t.app.charla.db.select().from(messages).where(eq(messages.ticketId, ticketId));
    expect(all.some((m) => m.body.includes("Transferir al sector"))).toBe(false);
  });

  it("a provider error hands over with the reason in a note, never the key", async () => {
    const { w, humans } = await aiCompany();
    const ana = phone(t, w);
    fake.answer({ reply: "Hola, dime." });
    await ana.say("Hola");
    await ana.replies();
    fake.answer({ status: 500, error: `upstream exploded for ${KEY}` });
    const ticketId = await ana.say("¿Tienen cascos?");
    expect(await ana.replies()).toEqual([TRANSFER]);
    expect(await ana.ticket()).toMatchObject({ queueId: humans.id, useIntegration: false, chatbot: false });
    const [note] = await notesOf(ticketId);
    expect(note).toContain("HTTP 500");
    expect(note).not.toContain(KEY);
    expect(note).not.toContain("0123456789abcdef");
  });

  it("a time-out hands over with a note too", async () => {
    const { w, humans } = await aiCompany();
    const ana = phone(t, w);
    fake.answer({ reply: "Hola, dime." });
    await ana.say("Hola");
    await ana.replies();
    fake.answer({ hang: true });
    const started = Date.now();
    const ticketId = await ana.say("¿Hay tallas grandes?");
    expect(Date.now() - started).toBeGreaterThanOrEqual(AI_TIMEOUT_MS - 100);
    expect(await ana.replies()).toEqual([TRANSFER]);
    expect(await ana.ticket()).toMatchObject({ queueId: humans.id, useIntegration: false });
    expect(await notesOf(ticketId)).toEqual([expect.stringContaining("time-out")]);
  });
});
