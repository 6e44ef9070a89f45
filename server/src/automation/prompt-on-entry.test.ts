import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChatbot } from "../chatbot/flow.js";
import { messages, prompts, ticketNotes } from "../db/schema/index.js";
import { type TestApp, getIsolatedTestApp } from "../test/app.js";
import { addOption, botCompany, linkQueue, phone, setSetting, week } from "../test/chatbot-kit.js";
import { type FakeOpenAi, startFakeOpenAi } from "../test/fake-openai.js";
import { caller, uid } from "../test/http.js";
import { TRANSFER_PHRASE } from "./ai-turn.js";

let t: TestApp;
let fake: FakeOpenAi;
const KEY = "sk-entry-0123456789abcdef";
beforeAll(async () => {
  t = await getIsolatedTestApp();
  fake = await startFakeOpenAi({ key: KEY });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
const call = caller(() => t.app);

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const LIST_GREETING = "¡Hola! Elige un área:";
const SALES_GREETING = "Bienvenido a Ventas";
const TRANSFER = "Te paso con una persona del equipo";

/**
 * A company whose connection offers "Ventas" (with a greeting and an option tree) and "Soporte", and a
 * prompt saved through its dialog's API with its area "Ventas" ("Informar al sector") and no other step.
 */
async function salesWithPrompt(opts: { plan?: boolean; sales?: Parameters<typeof linkQueue>[2] } = {}) {
  const w = await botCompany(
    t,
    { greetingMessage: LIST_GREETING, transferMessage: TRANSFER },
    { plan: { useOpenAi: opts.plan ?? true } },
  );
  const sales = await linkQueue(t, w, { name: "Ventas", orderQueue: 1, greetingMessage: SALES_GREETING, ...opts.sales });
  await addOption(t, sales, { option: "1", title: "Precios", message: "Lista de precios" });
  const support = await linkQueue(t, w, {
    name: "Soporte técnico",
    orderQueue: 2,
    greetingMessage: "Soporte",
    timeZone: "UTC",
    schedules: week(Object.fromEntries(DAYS.map((d) => [d, ["00:00", "23:59"]]))),
  });
  const values = {
    name: `Vendedor ${uid()}`,
    prompt: "Eres el vendedor de una tienda de bicicletas.",
    model: "gpt-4o-mini",
    baseUrl: fake.baseUrl,
    queueId: sales.id,
  };
  if (opts.plan === false) {
    // made while the plan had the flag: the API refuses it now
    const [row] = await t.app.charla.db
      .insert(prompts)
      .values({ ...values, companyId: w.companyId, apiKeySealed: t.app.charla.secrets.seal(KEY) })
      .returning();
    return { w, sales, support, prompt: row };
  }
  const res = await call(w.session, "POST", "/prompt", { ...values, apiKey: KEY });
  expect(res.statusCode, res.body).toBe(201);
  return { w, sales, support, prompt: res.json() as { id: number } };
}

const chatsFrom = () => {
  const start = fake.chats().length;
  return () => fake.chats().slice(start);
};

const notesOf = async (ticketId: number) =>
  (await t.app.charla.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId)).orderBy(asc(ticketNotes.id))).map(
    (n) => n.note,
  );

const LIST = `${LIST_GREETING}\n\n*[ 1 ]* - Ventas\n*[ 2 ]* - Soporte técnico`;

describe("a prompt saved with its area answers that area's customers", () => {
  it("from the message that chose the area: the area's greeting, then the prompt's answer; no option menu", async () => {
    const { w, sales, prompt } = await salesWithPrompt();
    const ana = phone(t, w);
    const sent = chatsFrom();
    await ana.say("Hola");
    expect(await ana.replies()).toEqual([LIST]);
    expect(sent()).toEqual([]);

    fake.answer({ reply: "¡Hola! ¿Buscas bici de ruta o de montaña?" });
    const ticketId = await ana.say("1");
    expect(await ana.replies()).toEqual([SALES_GREETING, "¡Hola! ¿Buscas bici de ruta o de montaña?"]);
    const [chat] = sent();
    expect(chat.messages[0].content).toContain("vendedor de una tienda de bicicletas");
    expect(chat.messages.slice(1)).toEqual([
      { role: "user", content: "Hola" },
      { role: "assistant", content: LIST },
      { role: "user", content: "1" },
      { role: "assistant", content: SALES_GREETING },
    ]);
    expect(await ana.ticket()).toMatchObject({
      id: ticketId,
      queueId: sales.id,
      queueOptionId: null,
      chatbot: false,
      useIntegration: true,
      promptId: prompt.id,
    });

    // "1" now is the customer's words to the prompt, not the tree's option
    fake.answer({ reply: "La de montaña cuesta 5.000." });
    await ana.say("1");
    expect(await ana.replies()).toEqual(["La de montaña cuesta 5.000."]);
    expect(sent()).toHaveLength(2);
  });

  it("the transfer phrase hands the ticket to the area's humans with a note, and the prompt stays quiet after", async () => {
    const { w, sales } = await salesWithPrompt();
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    fake.answer({ reply: "Claro." });
    await ana.say("1");
    await ana.replies();
    fake.answer({ reply: `Lo revisa un compañero. ${TRANSFER_PHRASE}` });
    const ticketId = await ana.say("Quiero devolver una bici");
    expect(await ana.replies()).toEqual(["Lo revisa un compañero.", TRANSFER]);
    const ticket = await ana.ticket();
    expect(ticket).toMatchObject({ queueId: sales.id, useIntegration: false, chatbot: false, userId: null, status: "pending" });
    expect(ticket.automationDone).toContain(`queue:${sales.id}`);
    expect(await notesOf(ticketId)).toEqual([expect.stringContaining("transfirió")]);
    const sent = chatsFrom();
    await ana.say("¿Hola?");
    await t.app.charla.events.idle();
    expect(await ana.replies()).toEqual([]);
    expect(sent()).toEqual([]);
  });

  it("a customer asking for a person as they choose (keyword choice) goes to the humans at once, the model not asked", async () => {
    const { w, sales } = await salesWithPrompt();
    await setSetting(t, w.companyId, "chatBotType", "keyword");
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    const sent = chatsFrom();
    const ticketId = await ana.say("ventas, con una persona por favor");
    expect(await ana.replies()).toEqual([SALES_GREETING, TRANSFER]);
    expect(sent()).toEqual([]);
    expect(await ana.ticket()).toMatchObject({ queueId: sales.id, useIntegration: false });
    expect(await notesOf(ticketId)).toEqual([expect.stringContaining("persona")]);
  });

  it("the only area of a connection, without a greeting: the prompt's answer is the first thing the customer gets", async () => {
    const w = await botCompany(t, {}, { plan: { useOpenAi: true } });
    const only = await linkQueue(t, w, { name: "Única", greetingMessage: "" });
    const res = await call(w.session, "POST", "/prompt", {
      name: `Asistente ${uid()}`,
      prompt: "Eres un asistente.",
      model: "gpt-4o-mini",
      apiKey: KEY,
      baseUrl: fake.baseUrl,
      queueId: only.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const ana = phone(t, w);
    const sent = chatsFrom();
    fake.answer({ reply: "Hola, ¿en qué te ayudo?" });
    await ana.say("Buenas tardes");
    expect(await ana.replies()).toEqual(["Hola, ¿en qué te ayudo?"]);
    expect(sent()[0].messages.slice(1)).toEqual([{ role: "user", content: "Buenas tardes" }]);
  });

  it("an area chosen with no prompt of its own behaves as before; out of hours the notice alone", async () => {
    const { w } = await salesWithPrompt({ sales: { schedules: week({}), outOfHoursMessage: "Ventas está cerrado" } });
    await setSetting(t, w.companyId, "scheduleType", "queue");
    const sent = chatsFrom();
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    await ana.say("2");
    expect(await ana.replies()).toEqual(["Soporte"]);
    const bea = phone(t, w, "Bea");
    await bea.say("Hola");
    await bea.replies();
    await bea.say("1");
    expect(await bea.replies()).toEqual(["Ventas está cerrado"]);
    expect(sent()).toEqual([]);
  });

  it("a plan without useOpenAi: choosing the area gets its greeting and menu, the model is never asked", async () => {
    const { w } = await salesWithPrompt({ plan: false });
    const sent = chatsFrom();
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    await ana.say("1");
    expect(await ana.replies()).toEqual([`${SALES_GREETING}\n\n[ 1 ] - Precios\n[ # ] Menú principal`]);
    await ana.say("¿Hay bicis?");
    await t.app.charla.events.idle();
    expect(sent()).toEqual([]);
    expect((await ana.ticket()).useIntegration).toBe(false);
  });
});

describe("the entering turn, once", () => {
  /** The customer's message stored without the live bot hearing it; its id. */
  async function storeQuietly(ana: ReturnType<typeof phone>, body: string) {
    const s = t.app.charla;
    const publish = s.events.publish;
    s.events.publish = (e) => {
      if (e.type !== "message.received") publish.call(s.events, e);
    };
    let ticketId: number;
    try {
      ticketId = await ana.say(body);
    } finally {
      s.events.publish = publish;
    }
    const [row] = await s.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.fromMe, false), eq(messages.body, body)))
      .orderBy(asc(messages.id));
    return { ticketId, messageId: row.id };
  }

  const turn = (w: { companyId: number }, at: { ticketId: number; messageId: number }, body: string) =>
    runChatbot(t.app.charla, { companyId: w.companyId, ...at, msg: { fromMe: false, isGroup: false, body } });

  it("run twice at once, the greeting and the prompt's answer go out once", async () => {
    const { w, sales } = await salesWithPrompt();
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    const at = await storeQuietly(ana, "1");
    fake.answer({ reply: "¿Qué bici buscas?" });
    await Promise.all([turn(w, at, "1"), turn(w, at, "1")]);
    await turn(w, at, "1");
    await t.app.charla.events.idle();
    expect(await ana.replies()).toEqual([SALES_GREETING, "¿Qué bici buscas?"]);
    expect(await ana.ticket()).toMatchObject({ queueId: sales.id, useIntegration: true });
  });

  it("a newer message already stored: the choice takes the ticket to its area, the newer turn has the prompt answer", async () => {
    const { w, sales } = await salesWithPrompt();
    const ana = phone(t, w);
    await ana.say("Hola");
    await ana.replies();
    const choice = await storeQuietly(ana, "1");
    const question = await storeQuietly(ana, "¿Tienen cascos?");
    const sent = chatsFrom();
    fake.answer({ reply: "Sí, de todas las tallas." });
    await turn(w, choice, "1");
    expect(await ana.ticket()).toMatchObject({ queueId: sales.id, useIntegration: false });
    expect(await ana.replies()).toEqual([SALES_GREETING]);
    await turn(w, question, "¿Tienen cascos?");
    await t.app.charla.events.idle();
    expect(await ana.replies()).toEqual(["Sí, de todas las tallas."]);
    // one call, with both messages and the greeting sent meanwhile, in the order they were stored
    const [chat, ...more] = sent();
    expect(more).toEqual([]);
    expect(chat.messages.slice(-3)).toEqual([
      { role: "user", content: "1" },
      { role: "user", content: "¿Tienen cascos?" },
      { role: "assistant", content: SALES_GREETING },
    ]);
  });
});
